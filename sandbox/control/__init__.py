"""The /sandbox control API: ours, not the gateway's (kept apart like anvil_* from eth_*)."""
