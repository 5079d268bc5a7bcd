#!/usr/bin/env python3
"""Refresh supply-chain/advisories.json from the OSV database's ecosystem exports (docs/supply-chain.md).

Keeps every record of severity CRITICAL (the GitHub Advisory Database's rating, which OSV carries in
database_specific.severity) that names a package the suite ships at any version: the Maven components of the
four services' bills of materials (run ./mvnw package first) and every package of exam-client/package-lock.json.
So an upgrade into an affected range fails the build even before the list is refreshed again.

  python3 supply-chain/refresh-advisories.py                 # downloads Maven/all.zip and npm/all.zip from OSV
  python3 supply-chain/refresh-advisories.py --from DIR      # DIR/Maven.zip and DIR/npm.zip fetched elsewhere
"""
import argparse
import datetime
import io
import json
import pathlib
import sys
import urllib.request
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SERVICES = ["session-service", "answer-service", "submission-service", "grading-saga"]
OSV = "https://osv-vulnerabilities.storage.googleapis.com/{}/all.zip"


def shipped():
    names = {"Maven": set(), "npm": set()}
    for service in SERVICES:
        bom = ROOT / service / "target" / "bom.json"
        if not bom.is_file():
            sys.exit(f"{bom} is missing: ./mvnw package -DskipTests first")
        for component in json.loads(bom.read_text()).get("components", []):
            purl = component.get("purl", "")
            if purl.startswith("pkg:maven/"):
                group, artifact = purl[len("pkg:maven/"):].split("@")[0].split("/")[:2]
                names["Maven"].add(f"{group}:{artifact}")
    lock = json.loads((ROOT / "exam-client" / "package-lock.json").read_text())
    for key in lock.get("packages", {}):
        if "node_modules/" in key:
            names["npm"].add(key.rsplit("node_modules/", 1)[1])
    return names


def export(ecosystem, source):
    if source:
        return zipfile.ZipFile(pathlib.Path(source) / f"{ecosystem}.zip")
    with urllib.request.urlopen(OSV.format(ecosystem), timeout=300) as response:
        return zipfile.ZipFile(io.BytesIO(response.read()))


def ranges(affected):
    out = []
    for r in affected.get("ranges", []):
        if r.get("type") not in ("ECOSYSTEM", "SEMVER"):
            continue
        start = None
        for event in r.get("events", []):
            if "introduced" in event:
                start = event["introduced"]
            elif "fixed" in event and start is not None:
                out.append({"introduced": start, "fixed": event["fixed"]})
                start = None
            elif "last_affected" in event and start is not None:
                out.append({"introduced": start, "lastAffected": event["last_affected"]})
                start = None
        if start is not None:
            out.append({"introduced": start})
    if not out:  # a record that lists versions only
        out = [{"introduced": v, "lastAffected": v} for v in affected.get("versions", [])]
    return out


def advisories(names, source):
    found = []
    for ecosystem in ("Maven", "npm"):
        with export(ecosystem, source) as archive:
            for entry in archive.namelist():
                record = json.loads(archive.read(entry))
                severity = (record.get("database_specific") or {}).get("severity", "")
                if severity.upper() != "CRITICAL" or record.get("withdrawn"):
                    continue
                for affected in record.get("affected", []):
                    package = affected.get("package", {})
                    if package.get("ecosystem") == ecosystem and package.get("name") in names[ecosystem]:
                        found.append({"id": record["id"], "aliases": record.get("aliases", []), "ecosystem": ecosystem,
                                      "package": package["name"], "severity": "CRITICAL", "ranges": ranges(affected),
                                      "summary": record.get("summary", "")})
    return sorted(found, key=lambda a: (a["ecosystem"], a["package"], a["id"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="source", help="a directory holding Maven.zip and npm.zip (OSV exports)")
    parser.add_argument("--out", default=str(ROOT / "supply-chain" / "advisories.json"))
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    previous = json.loads(out.read_text()) if out.is_file() else {}
    found = advisories(shipped(), args.source)
    document = {
        "about": previous.get("about", "Critical advisories for packages the suite ships (docs/supply-chain.md)."),
        "refreshed": datetime.date.today().isoformat(),
        "source": "OSV ecosystem exports (Maven, npm), records rated CRITICAL, for packages the suite ships",
        "advisories": found,
    }
    out.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    print(f"{len(found)} critical advisories for shipped packages -> {out}")


if __name__ == "__main__":
    main()
