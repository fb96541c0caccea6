"""Pure rules of the gateway: no Flask, no storage. Unit tests need neither."""
