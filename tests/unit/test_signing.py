import base64
import hashlib
import hmac

import pytest

from sandbox.domain.signing import sign, verify

BODY = b'{"amount":"1.5","invoice":"INV-1"}'


def test_default_is_lowercase_hex_hmac_sha256_of_the_raw_body():
    expected = hmac.new(b"secret", BODY, hashlib.sha256).hexdigest()
    assert sign("secret", BODY) == expected
    assert verify("secret", BODY, expected)


def test_sha512_and_base64_are_available():
    digest = hmac.new(b"secret", BODY, hashlib.sha512).digest()
    assert sign("secret", BODY, "sha512", "base64") == base64.b64encode(digest).decode()
    assert verify("secret", BODY, base64.b64encode(digest).decode(), "sha512", "base64")


@pytest.mark.parametrize("signature", [None, "", "00", sign("other", BODY), sign("secret", BODY + b" "),
                                       sign("secret", BODY).upper(), "\udcff"])
def test_anything_but_the_exact_signature_fails(signature):
    assert not verify("secret", BODY, signature)
