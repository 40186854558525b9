"""pip-audit over the virtual environment's packages, with an honest verdict (run by `.ci/run`).

    .venv/bin/python tools/audit_deps.py            # fails on a known vulnerability
    RISK_AUDIT_STRICT=1 .venv/bin/python tools/audit_deps.py   # also fails when packages went unaudited

pip-audit asks a vulnerability service about each installed package's version. It says "No known
vulnerabilities found" even when the service could not answer for a single package (it skips them),
so this reads its JSON report and tells the three cases apart:

- a known vulnerability in any package: listed, exit 1;
- every package audited, none vulnerable: exit 0;
- packages the service could not answer for, or pip-audit could not run at all (no network to the
  service): a warning that names how many went unaudited, exit 0 (exit 1 with RISK_AUDIT_STRICT=1,
  for a machine whose network is known to reach the service).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# Advisories that do not apply to how risk uses a package, each with the reason; matched by the
# advisory's id or any of its aliases. Keep this list short and every reason checkable.
NOT_APPLICABLE = {
    # Ray's "ShadowRay" (CVE-2023-48022, GHSA-6wgj-66m2-xxp2): the Jobs API of Ray's dashboard runs
    # code for anyone who can reach it. Disputed by the vendor (a cluster is meant for a trusted
    # network), listed for every version with no fix. risk installs plain `ray`, without the
    # dashboard's `ray[default]`, and its local Ray starts with include_dashboard=False.
    "CVE-2023-48022": "ray",
    "GHSA-6wgj-66m2-xxp2": "ray",
}


def not_applicable(package: str, vulnerability: dict[str, object]) -> bool:
    aliases = vulnerability.get("aliases")
    names = [vulnerability.get("id"), *(aliases if isinstance(aliases, list) else [])]
    return any(NOT_APPLICABLE.get(str(name)) == package.lower() for name in names)


def main() -> int:
    strict = os.environ.get("RISK_AUDIT_STRICT", "") not in ("", "0")
    pip_audit = Path(sys.executable).with_name("pip-audit")
    command = [str(pip_audit), "--skip-editable", "--progress-spinner", "off", "--format", "json"]
    try:
        finished = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return unaudited(f"pip-audit could not run: {error}", strict)
    try:
        report = json.loads(finished.stdout)
    except ValueError:
        reason = (finished.stderr.strip().splitlines() or ["no output"])[-1]
        return unaudited(f"pip-audit could not reach its vulnerability service ({reason})", strict)
    packages = report.get("dependencies", [])
    for package in packages:
        for vulnerability in package.get("vulns") or []:
            if not_applicable(package["name"], vulnerability):
                where = f"{package['name']} {package['version']}: {vulnerability['id']}"
                print(f"audit: {where} does not apply (tools/audit_deps.py says why)")
        package["vulns"] = [v for v in package.get("vulns") or [] if not not_applicable(package["name"], v)]
    vulnerable = [p for p in packages if p.get("vulns")]
    skipped = [p for p in packages if "skip_reason" in p]
    for package in vulnerable:
        for vulnerability in package["vulns"]:
            fixed = ", ".join(vulnerability.get("fix_versions") or []) or "no fixed version yet"
            print(f"audit: {package['name']} {package['version']}: {vulnerability['id']} (fixed in {fixed})")
    if vulnerable:
        print(f"audit: FAILED: {len(vulnerable)} of {len(packages)} packages have known vulnerabilities")
        return 1
    audited = len(packages) - len(skipped)
    if skipped:
        return unaudited(
            f"the vulnerability service answered for {audited} of {len(packages)} packages "
            f"(first unanswered: {skipped[0]['skip_reason']})",
            strict,
        )
    print(f"audit: ok: {len(packages)} packages audited, no known vulnerability")
    return 0


def unaudited(why: str, strict: bool) -> int:
    print(f"audit: WARNING: NOT AUDITED: {why}.")
    if strict:
        print("audit: FAILED (RISK_AUDIT_STRICT is set)")
        return 1
    print("audit: not counted as a failure: this machine's network may not reach the service")
    return 0


if __name__ == "__main__":
    sys.exit(main())
