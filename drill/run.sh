#!/usr/bin/env bash
# drill/run.sh — ./exam drill's entry until the Java CLI calls the drill itself (issue 37): the drill
# is exam-demo's org.examsuite.demo.drill.Drill (docs/drill.md). ./exam drill builds what is missing
# and passes EXAM_HOME, DRILL_DEMO_CP (exam-demo's class path), DRILL_OPERATOR_TOKEN,
# DRILL_COMMAND_<module> (a JVM or a native executable) and the services' environment.
set -euo pipefail
[ -n "${DRILL_DEMO_CP:-}" ] || { echo "drill: run through ./exam drill" >&2; exit 1; }
EXAM_HOME="${EXAM_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
export EXAM_HOME
# A small heap: the drill only starts, watches and signals processes (the driver gets its own 1 GB).
exec java -Xmx256m -cp "$DRILL_DEMO_CP" org.examsuite.demo.drill.Drill "$@"
