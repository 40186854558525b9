"""tools/audit_deps.py tells a known vulnerability (a failure) from packages left unaudited (a warning)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "audit_deps.py"


def run_tool(monkeypatch: pytest.MonkeyPatch, stdout: str, strict: bool = False) -> int:
    spec = importlib.util.spec_from_file_location("audit_deps", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def fake_run(command: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
        assert "--format" in command and "json" in command
        return subprocess.CompletedProcess(command, 1, stdout, "ConnectionError: no route\n")

    monkeypatch.setattr(module.subprocess, "run", fake_run)
    monkeypatch.setenv("RISK_AUDIT_STRICT", "1" if strict else "")
    return module.main()


def report(*packages: dict[str, Any]) -> str:
    return json.dumps({"dependencies": list(packages), "fixes": []})


CLEAN = {"name": "fastapi", "version": "1.0", "vulns": []}
VULNERABLE = {"name": "starlette", "version": "0.1", "vulns": [{"id": "PYSEC-1", "fix_versions": ["0.2"]}]}
SKIPPED = {"name": "alembic", "skip_reason": "Dependency not found and could not be audited"}


def test_a_known_vulnerability_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_tool(monkeypatch, report(CLEAN, VULNERABLE, SKIPPED)) == 1
    assert "starlette 0.1: PYSEC-1 (fixed in 0.2)" in capsys.readouterr().out


def test_everything_audited_and_clean_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_tool(monkeypatch, report(CLEAN)) == 0


@pytest.mark.parametrize("stdout", [report(CLEAN, SKIPPED), "", "Traceback (most recent call last):"])
def test_unaudited_packages_warn_and_fail_only_when_strict(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdout: str
) -> None:
    assert run_tool(monkeypatch, stdout) == 0
    assert "NOT AUDITED" in capsys.readouterr().out
    assert run_tool(monkeypatch, stdout, strict=True) == 1


def test_an_advisory_that_does_not_apply_is_named_and_not_counted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shadow_ray = {"id": "PYSEC-2023-999", "aliases": ["CVE-2023-48022"], "fix_versions": []}
    ray = {"name": "ray", "version": "2.60.0", "vulns": [shadow_ray]}
    assert run_tool(monkeypatch, report(CLEAN, ray)) == 0
    assert "ray 2.60.0: PYSEC-2023-999 does not apply" in capsys.readouterr().out
    # The same advisory on another package, or another advisory on ray, still fails.
    other = {"name": "rayon", "version": "1.0", "vulns": [shadow_ray]}
    assert run_tool(monkeypatch, report(other)) == 1
    ray_other = {"name": "ray", "version": "2.60.0", "vulns": [{"id": "PYSEC-1", "fix_versions": ["9"]}]}
    assert run_tool(monkeypatch, report(ray_other)) == 1
