import uuid

from sandbox.domain.seed import derive_fraction, derive_int, derive_token, derive_uuid


def test_derived_values_depend_on_seed_and_path_only():
    assert derive_token(1, "a", 2) == derive_token(1, "a", 2)
    assert derive_token(1, "a", 2) != derive_token(2, "a", 2)
    assert derive_token(1, "a", 2) != derive_token(1, "a", 3)


def test_derived_uuid_is_a_version_4_uuid():
    value = uuid.UUID(derive_uuid(3, "withdrawal", 1, 0))
    assert value.version == 4


def test_ranges():
    assert all(0 <= derive_int(0, i, below=10) < 10 for i in range(200))
    assert all(0 <= derive_fraction(0, i) < 1 for i in range(200))
