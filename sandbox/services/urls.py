"""Links to the sandbox's own pages, built on the base URL the client used."""


def checkout_url(base_url: str, payment_id: str) -> str:
    return f"{base_url}/checkout/{payment_id}"


def payment_redirect_url(base_url: str, payment_id: str) -> str:
    return f"{base_url}/pay/{payment_id}"
