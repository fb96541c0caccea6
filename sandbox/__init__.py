"""gateway-sandbox: a sandbox of a merchant crypto payment gateway (API v2)."""

__version__ = "0.1.0"
