"""Reading scenario files: YAML or JSON, checked against the JSON Schema shipped in
the package (data/scenario.schema.json, usable by editors), with the line of every
value kept so that errors can point at it."""

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import jsonschema
import yaml


class ScenarioError(Exception):
    """A scenario that cannot run, and where the problem is (`file:line: what`)."""


@dataclass
class Scenario:
    path: str
    data: dict
    lines: dict[tuple, int] = field(default_factory=dict)  # path in the data -> line in the file

    @property
    def name(self) -> str:
        return self.data["name"]

    def line_of(self, *path) -> int:
        """The line of `path`, or of the nearest enclosing value that has one."""
        for cut in range(len(path), -1, -1):
            if path[:cut] in self.lines:
                return self.lines[path[:cut]]
        return 1

    def where(self, *path) -> str:
        return f"{self.path}:{self.line_of(*path)}"


@cache
def schema() -> dict:
    return json.loads(resources.files("sandbox").joinpath("data/scenario.schema.json").read_text())


def load(path: str) -> Scenario:
    """The scenario at `path`, valid, or a ScenarioError naming file, line and rule."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ScenarioError(f"{path}: cannot be read: {error}") from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)  # JSON is YAML too
        lines = _lines(path, node) if node is not None else {}
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise ScenarioError(f"{path}:{line}: not valid YAML: {getattr(error, 'problem', error)}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: nested too deeply (a recursive alias?)") from None
    scenario = Scenario(path, data, lines)
    validator = jsonschema.Draft202012Validator(schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        where = scenario.where(*error.absolute_path)
        location = "/".join(map(str, error.absolute_path)) or "(top)"
        if error.validator == "oneOf" and isinstance(error.instance, dict):  # a step: which action?
            actions = [one["required"][0] for one in error.validator_value if one["required"] != ["expect"]]
            present = [key for key in error.instance if key in actions]
            if len(present) != 1 and not (not present and "expect" in error.instance):
                raise ScenarioError(f"{where}: {location}: a step needs exactly one action, "
                                    f"{'found ' + ', '.join(present) if present else 'found none'} "
                                    f"(actions: {', '.join(actions)})")
            error = _most_specific(error)
        raise ScenarioError(f"{scenario.where(*error.absolute_path)}: {'/'.join(map(str, error.absolute_path))}: "
                            f"{error.message} (schema: {'/'.join(map(str, error.absolute_schema_path))})")
    return scenario


def _most_specific(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For a step whose action is wrong, the error of its best candidate."""
    while error.context:
        error = jsonschema.exceptions.best_match(error.context)
    return error


def _lines(file: str, node, path=()) -> dict[tuple, int]:
    """The line of every value, by its path; a key written twice in one mapping is refused
    (YAML would silently keep the last)."""
    lines = {path: node.start_mark.line + 1}
    if isinstance(node, yaml.MappingNode):
        seen = set()
        for key, value in node.value:
            if key.value in seen:
                raise ScenarioError(f"{file}:{key.start_mark.line + 1}: {key.value!r} appears twice in one mapping")
            seen.add(key.value)
            lines.update(_lines(file, value, (*path, key.value)))
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines.update(_lines(file, item, (*path, index)))
    return lines
