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
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise ScenarioError(f"{path}:{line}: not valid YAML: {getattr(error, 'problem', error)}") from None
    scenario = Scenario(path, data, _lines(node) if node is not None else {})
    errors = sorted(jsonschema.Draft202012Validator(schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
                                                ).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        error = _most_specific(errors[0])
        location = "/".join(map(str, error.path)) or "(top)"
        raise ScenarioError(f"{scenario.where(*error.path)}: {location}: {error.message} "
                            f"(schema: {'/'.join(map(str, error.schema_path))})")
    return scenario


def _most_specific(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For a step that matches no action (oneOf), the error of its best candidate."""
    while error.context:
        error = jsonschema.exceptions.best_match(error.context)
    return error


def _lines(node, path=()) -> dict[tuple, int]:
    lines = {path: node.start_mark.line + 1}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            lines.update(_lines(value, (*path, key.value)))
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines.update(_lines(item, (*path, index)))
    return lines
