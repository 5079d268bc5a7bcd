# The services' JVM flags have one source: the chart's values (exam-suite/values.yaml,
# defaults.javaToolOptions and services.<name>.javaToolOptions, where the reasons for each flag
# are written). ./exam, the benches and the chart read them from there.
# shellcheck shell=bash
JVM_FLAGS_VALUES="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/exam-suite/values.yaml"

# The chart's images run a recent JDK; a local JDK before 17.0.9 refuses this flag. Asked once,
# here: java_flags_for runs in command substitutions, which would not keep a cached answer.
JVM_FLAGS_TRIM=no
if java -XX:TrimNativeHeapInterval=2000 -version >/dev/null 2>&1; then JVM_FLAGS_TRIM=yes; fi

# java_flags_for SERVICE: session-service, answer-service, submission-service or grading-saga.
java_flags_for() {
  local key
  case "$1" in
    session-service) key=session ;; answer-service) key=answer ;;
    submission-service) key=submission ;; grading-saga) key=grading ;;
    *) key="" ;;
  esac
  local flags
  flags="$(awk -v svc="$key" '
    /^[A-Za-z]/ { sect = $1; cur = "" }
    sect == "services:" && /^  [A-Za-z]+:/ { cur = $1; sub(/:$/, "", cur) }
    sect == "defaults:" && /^  javaToolOptions:/ { d = $0 }
    sect == "services:" && cur == svc && /^    javaToolOptions:/ { s = $0 }
    END { v = (s != "" ? s : d); sub(/^ *javaToolOptions: *"/, "", v); sub(/" *$/, "", v); print v }
  ' "$JVM_FLAGS_VALUES")"
  if [ "$JVM_FLAGS_TRIM" = no ]; then
    flags="$(echo "$flags" | sed 's/ *-XX:TrimNativeHeapInterval=[0-9]*//')"
  fi
  echo "$flags"
}

# The system properties among them (behaviour, not tuning): kept when EXAM_JAVA_OPTS replaces the rest.
java_properties_for() {
  java_flags_for "$1" | tr ' ' '\n' | grep '^-D' | tr '\n' ' ' | sed 's/ $//'
}
