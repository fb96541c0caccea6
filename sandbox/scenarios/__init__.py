"""Scenario files: QA scripts that set up, drive and check a sandbox."""
