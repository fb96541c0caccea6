"""JUnit XML of a run, the format CI servers read: a test case per scenario."""

import re
from xml.etree import ElementTree

from sandbox.scenarios.runner import ScenarioResult


# Characters XML 1.0 cannot carry, even escaped.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: str) -> str:
    return _NOT_XML.sub("\ufffd", value)


def report(results: list[ScenarioResult], suite: str = "gateway-sandbox scenarios") -> str:
    failures = sum(1 for r in results if not r.passed and not r.error)
    errors = sum(1 for r in results if r.error)
    root = ElementTree.Element("testsuites", name=suite, tests=str(len(results)), failures=str(failures),
                               errors=str(errors), time=f"{sum(r.seconds for r in results):.3f}")
    suite_element = ElementTree.SubElement(root, "testsuite", name=suite, tests=str(len(results)),
                                           failures=str(failures), errors=str(errors),
                                           time=f"{sum(r.seconds for r in results):.3f}")
    for result in results:
        case = ElementTree.SubElement(suite_element, "testcase", classname=_text(result.scenario.path),
                                      name=_text(result.scenario.name), time=f"{result.seconds:.3f}")
        if result.error:
            ElementTree.SubElement(case, "error", message=_text(result.error[:500])).text = _text(result.error)
        elif not result.passed:
            failed = next(step for step in result.steps if not step.passed)
            message = f"step {failed.number} {failed.action} at {failed.where}"
            ElementTree.SubElement(case, "failure", message=_text(message)).text = _text(
                "\n".join([message, *failed.problems]))
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True)
