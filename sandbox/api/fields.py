"""marshmallow fields for the gateway's wire formats, documented precisely in OpenAPI."""

import re
from functools import lru_cache

import marshmallow as ma
from email_validator import EmailNotValidError, validate_email

# A decimal string as the gateway renders it (responses).
DECIMAL_STRING_PATTERN = r"^[0-9]+(\.[0-9]+)?$"
# A requested amount of a withdrawal: digits with at most 8 decimals.
REQUESTED_AMOUNT_PATTERN = r"^[0-9]{1,30}(\.[0-9]{1,8})?$"


CONTROL = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f"  # control characters but tab and line breaks
_CONTROL_CHARACTERS = re.compile(f"[{CONTROL}]")
TEXT_PATTERN = f"^[^{CONTROL}]*$"


class Text(ma.fields.String):
    """Text without lone surrogates (JSON allows them; nothing downstream can store them)
    or control characters other than tab and line breaks (a NUL cuts strings short
    in C libraries, SQLite's search among them). The contract says so with a pattern,
    unless the field documents a pattern of its own."""

    default_error_messages = {"unicode": "Not valid Unicode text."}

    def __init__(self, **kwargs):
        validators = kwargs.get("validate") or []
        validators = validators if isinstance(validators, (list, tuple)) else [validators]
        metadata = kwargs.pop("metadata", {})
        if "pattern" not in metadata and not any(isinstance(v, ma.validate.Regexp) for v in validators):
            metadata = {**metadata, "pattern": TEXT_PATTERN}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise self.make_error("unicode") from None
        if _CONTROL_CHARACTERS.search(text):
            raise self.make_error("unicode")
        return text


MAX_PAGE = 1_000_000


def name(field: str, *, validate_length: int = 32, **kwargs) -> Text:
    """A required name (a network, a ticker): blank is as good as missing."""
    message = f"{field} is required"
    return Text(required=True, error_messages={"required": message},
                validate=[ma.validate.Regexp(r"\S", error=message),
                          ma.validate.Length(max=validate_length, error=f"{field} is too long")], **kwargs)


class StrictBoolean(ma.fields.Boolean):
    """A JSON true or false, and nothing else (marshmallow also takes 1, "yes", "on")."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class QueryBoolean(ma.fields.Boolean):
    """A query flag: true or false (also 1 or 0)."""

    def __init__(self, **kwargs):
        super().__init__(truthy={"true", "1"}, falsy={"false", "0"}, **kwargs)


class Count(ma.fields.Integer):
    """A whole number in a query string: ASCII digits only (int() would take "１")."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not re.fullmatch(r"[0-9]{1,12}", value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


def decimal_string(**kwargs) -> ma.fields.String:
    """A money amount rendered as a decimal string (never a JSON number)."""
    metadata = {"pattern": DECIMAL_STRING_PATTERN, "example": "10.5", **kwargs.pop("metadata", {})}
    return ma.fields.String(metadata=metadata, **kwargs)


def requested_amount(**kwargs) -> Text:
    """An amount a client asks for. Only documented here: the rules check it (so the
    message is the gateway's), including the asset's own precision."""
    metadata = {"pattern": REQUESTED_AMOUNT_PATTERN, "example": "25.5", **kwargs.pop("metadata", {})}
    return Text(metadata=metadata, **kwargs)


def _email_syntax(value: str) -> None:
    if not _is_email(value):
        raise ma.ValidationError("Not a valid email address.")


@lru_cache(maxsize=4096)
def _is_email(value: str) -> bool:
    """Remembered: email-validator takes a tenth of a millisecond, a tenth of a
    create-withdrawal, and the same customers come back."""
    try:
        validate_email(value, check_deliverability=False, test_environment=True)  # QA may use @x.test
    except EmailNotValidError:
        return False
    return True


class Email(ma.fields.Email):
    """An e-mail address whose syntax email-validator accepts (no DNS lookups)."""

    def __init__(self, **kwargs):
        super().__init__(validate=_email_syntax, **kwargs)


class CsvList(ma.fields.List):
    """A list query parameter given repeated (`?ids=a&ids=b`), comma-separated
    (`?ids=a,b`), or both. Empty values are refused, as are values outside
    `choices` when given. The item pattern documents exactly that, so a contract
    checker knows `OPEN,APPROVED` is one valid item and `OPEN,` is not."""

    def __init__(self, *, choices: tuple[str, ...] | None = None, max_length: int = 4096, **kwargs):
        value = "|".join(map(re.escape, choices)) if choices else f"[^,{CONTROL}]+"
        item = Text(validate=ma.validate.Length(max=max_length), metadata={"pattern": f"^({value})(,({value}))*$"})
        super().__init__(item, **kwargs)
        self.choices = choices

    def _deserialize(self, value, attr, data, **kwargs):
        items = value if isinstance(value, list) else [value]
        parts = [part for item in items for part in str(item).split(",")]
        if not all(parts):
            raise ma.ValidationError(f"{attr} must not contain empty values")
        unknown = [part for part in parts if self.choices and part not in self.choices]
        if unknown:
            raise ma.ValidationError(f"{attr} has an unknown value {unknown[0]!r}; "
                                     f"expected some of {', '.join(self.choices)}")
        return super()._deserialize(parts, attr, data, **kwargs)
