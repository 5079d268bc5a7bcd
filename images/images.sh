# shellcheck shell=bash
# ./exam images: the five OCI images (four services, the exam page) built without a container
# daemon and pushed to a registry, then checked (docs/operations.md, "Images"). Sourced by ./exam.
#
# Names come from the chart: services.<key>.image.repository and frontend.image.repository in
# values.yaml, the tag is Chart.yaml's appVersion (the Maven version). What was pushed — registry,
# tag, each image's digest — is written to .exam/images/values.yaml, the values file the chart
# is rendered with (helm -f); the check renders the chart with it.
# shellcheck source=images/oci.sh
. "$EXAM_HOME/images/oci.sh"

IMAGES_DIR="$STATE_DIR/images"
REGISTRY_DIR="$STATE_DIR/registry"
REGISTRY_MARKER="docker-registry serve $REGISTRY_DIR"
CHART_DIR="$EXAM_HOME/k8s/chart/exam-suite"
# The JRE base image (not in the chart: only the services' images are built FROM it).
BASE_REPOSITORY="examsuite/jre17"
# Modules of the jlink'ed JRE: what Quarkus, Vert.x, Netty, Hibernate, the PostgreSQL driver,
# OpenTelemetry and Micrometer use at run time (java.desktop for java.beans), plus JFR and
# jcmd support for diagnosing a pod.
JRE_MODULES="java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.management.rmi,java.naming,java.net.http,java.prefs,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.transaction.xa,java.xml,jdk.attach,jdk.crypto.cryptoki,jdk.crypto.ec,jdk.jfr,jdk.jcmd,jdk.management,jdk.management.agent,jdk.naming.dns,jdk.net,jdk.unsupported,jdk.zipfs"

chart_tag() { awk -F'"' '/^appVersion:/ { print $2 }' "$CHART_DIR/Chart.yaml"; }

# chart_repositories: "<chart key> <repository>" for services.<key>.image.repository and
# frontend.image.repository (the chart's values.yaml writes them as one-line flow maps).
chart_repositories() {
  awk '
    /^[a-z]/ { top = $1; sub(":", "", top) }
    top == "services" && /^  [a-z]+:$/ { key = $1; sub(":", "", key) }
    (top == "services" || top == "frontend") && /image: *\{ *repository:/ {
      repo = $0; sub(/.*repository: */, "", repo); sub(/[ ,}].*/, "", repo)
      print (top == "frontend" ? "frontend" : key), repo
    }' "$CHART_DIR/values.yaml"
}

registry_answers() { curl -fs -o /dev/null --max-time 3 "http://$1/v2/"; }

# ensure_registry HOST:PORT: a registry answering there; on loopback, Debian's docker-registry
# is started when none answers (data in .exam/registry/, left running: docs/operations.md).
STARTED_REGISTRY=""
ensure_registry() {
  local registry="$1" host port pid
  registry_answers "$registry" && return 0
  host="${registry%:*}" port="${registry##*:}"
  is_loopback "$host" || die "no registry answers at $registry (only a loopback one is started here)"
  need_tool docker-registry docker-registry || return 1
  mkdir -p "$REGISTRY_DIR/data" "$RUN_DIR" "$LOG_DIR"
  cat >"$REGISTRY_DIR/config.yml" <<YAML
version: 0.1
log: {level: warn}
storage:
  filesystem: {rootdirectory: $REGISTRY_DIR/data}
  delete: {enabled: true}
http:
  addr: $host:$port
YAML
  nohup docker-registry serve "$REGISTRY_DIR/config.yml" >"$LOG_DIR/registry.log" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$(pid_file registry)"
  STARTED_REGISTRY=1
  local waited=0
  until registry_answers "$registry"; do
    kill -0 "$pid" 2>/dev/null || { log_tail "$LOG_DIR/registry.log"; die "docker-registry did not start"; }
    [ "$waited" -lt 30 ] || die "docker-registry did not answer on $registry in 30 s"
    sleep 1
    waited=$((waited + 1))
  done
  say "started docker-registry (pid $pid) on $registry, data in .exam/registry/data"
}

stop_registry() {
  local pid
  pid="$(cat "$(pid_file registry)" 2>/dev/null)" || return 0
  kill "$pid" 2>/dev/null || true
  rm -f "$(pid_file registry)"
}

manifest_digest() { # REGISTRY REPO TAG
  curl -fsS -I -H 'Accept: application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json' \
    "http://$1/v2/$2/manifests/$3" | tr -d '\r' | awk 'tolower($1) == "docker-content-digest:" { print $2 }'
}

# build_base_image REGISTRY: a JRE made with jlink from this machine's JDK 17 on a minimal root
# filesystem (the JRE's shared libraries from this machine, /etc/passwd with UID 185); prints
# its reference.
build_base_image() {
  local registry="$1" work="$IMAGES_DIR/base" java_home version
  java_home="$(dirname "$(dirname "$(readlink -f "$(command -v jlink || command -v java)")")")"
  [ -x "$java_home/bin/jlink" ] || die "jlink not found next to java ($java_home): a JDK (not a JRE) is needed"
  version="$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 | awk '$1 == "java.version" { print $3 }')"
  case "$version" in 17.*) ;; *) die "the JVM images need a JDK 17 for jlink (found $version in $java_home)" ;; esac
  rm -rf "$work" && mkdir -p "$work/jre/opt" "$work/root"
  "$java_home/bin/jlink" --add-modules "$JRE_MODULES" --strip-debug --no-man-pages --no-header-files \
    --compress=2 --output "$work/jre/opt/java" >&2
  oci_rootfs "$work/root"
  # java.desktop's AWT, sound and font libraries are never loaded headless (java.beans is what
  # is used): their X11/ALSA/FreeType dependencies stay out of the image.
  # shellcheck disable=SC2046 # one argument per library
  OCI_OWN_LIBS="$work/jre" oci_copy_libs "$work/root" "$work/jre/opt/java/bin/java" \
    $(find "$work/jre/opt/java" -name '*.so' ! -name 'libawt*' ! -name 'libjawt.so' ! -name 'libsplashscreen.so' \
      ! -name 'libjsound.so' ! -name 'libfontmanager.so' ! -name 'liblcms.so' ! -name 'libjavajpeg.so' ! -name 'libmlib_image.so')
  oci_layer "$work/root" "$work/root.tar.gz"
  oci_layer "$work/jre" "$work/jre.tar.gz"
  oci_config "$work/config.json" "$(jq -cn --arg v "$version" '{
      User: "185", WorkingDir: "/tmp",
      Env: ["PATH=/opt/java/bin:/usr/bin:/bin", "JAVA_HOME=/opt/java", "LANG=C.UTF-8"],
      Labels: {"org.opencontainers.image.title": "jre17", "org.opencontainers.image.version": $v,
               "org.opencontainers.image.description": "jlink JRE on a minimal root filesystem (./exam images)"}}')" \
    "$work/root.tar.gz" "$work/jre.tar.gz"
  oci_push_image "$registry" "$BASE_REPOSITORY" "$version" "$work/config.json" "$work/root.tar.gz" "$work/jre.tar.gz" >/dev/null
  echo "$registry/$BASE_REPOSITORY:$version"
}

# build_page_image REGISTRY REPO TAG REVISION: exam-client's static files (page, SDK, proctor
# console) on this machine's nginx (Debian nginx-light) with its shared libraries; prints the
# manifest digest.
build_page_image() {
  local registry="$1" repo="$2" tag="$3" revision="$4" work="$IMAGES_DIR/exam-client" nginx
  need_tool nginx nginx-light || return 1
  nginx="$(command -v nginx)"
  rm -rf "$work" && mkdir -p "$work/root/usr/sbin" "$work/root/etc/nginx" "$work/files/srv/exam-client"
  oci_rootfs "$work/root"
  cp -L "$nginx" "$work/root/usr/sbin/nginx"
  OCI_OWN_LIBS="$work" oci_copy_libs "$work/root" "$nginx"
  cp /etc/nginx/mime.types "$work/root/etc/nginx/mime.types"
  cp "$EXAM_HOME/images/exam-client-nginx.conf" "$work/root/etc/nginx/nginx.conf"
  # nginx opens its compiled-in log and temp paths before reading the configuration
  mkdir -p "$work/root/var/log/nginx" "$work/root/var/lib/nginx"
  ln -sf /dev/stderr "$work/root/var/log/nginx/error.log"
  cp -r "$EXAM_HOME/exam-client/page" "$EXAM_HOME/exam-client/sdk" "$EXAM_HOME/exam-client/console" \
    "$work/files/srv/exam-client/"
  chmod -R a+rX,go-w "$work/root" "$work/files"
  chmod 1777 "$work/root/tmp"
  oci_layer "$work/root" "$work/root.tar.gz"
  oci_layer "$work/files" "$work/files.tar.gz"
  oci_config "$work/config.json" "$(jq -cn --arg tag "$tag" --arg rev "$revision" --arg created "$OCI_CREATED" '{
      User: "101:101", WorkingDir: "/tmp", ExposedPorts: {"8080/tcp": {}},
      Env: ["PATH=/usr/sbin:/usr/bin:/bin"],
      Entrypoint: ["/usr/sbin/nginx", "-e", "stderr", "-g", "daemon off;"],
      StopSignal: "SIGQUIT",
      Labels: {"org.opencontainers.image.title": "exam-client",
               "org.opencontainers.image.description": "The reference exam page, its SDK and the proctor console (static files on nginx)",
               "org.opencontainers.image.version": $tag, "org.opencontainers.image.revision": $rev,
               "org.opencontainers.image.created": $created,
               "org.opencontainers.image.vendor": "Exam Suite", "org.opencontainers.image.licenses": "NOASSERTION"}}')" \
    "$work/root.tar.gz" "$work/files.tar.gz"
  oci_push_image "$registry" "$repo" "$tag" "$work/config.json" "$work/root.tar.gz" "$work/files.tar.gz"
}

# build_native_image SERVICE REGISTRY REPO TAG REVISION: the service's native executable
# (./exam build --native) as /app/service on a minimal root filesystem — what it loads (ldd:
# glibc, libz) and oci_rootfs's files — as UID 1001, with the service's own OCI labels and port,
# pushed as REPO:TAG-native; prints the manifest digest. Its Cmd is the heap sizes and system
# properties ./exam up --native gives it (the chart's args replace them).
build_native_image() {
  local svc="$1" work="$IMAGES_DIR/native/$1" props="$EXAM_HOME/$1/src/main/resources/application.properties"
  rm -rf "$work" && mkdir -p "$work/app/app" && oci_rootfs "$work/root" &&
    OCI_OWN_LIBS="$work/app" oci_copy_libs "$work/root" "$(native_exe "$svc")"
  install -m 755 "$(native_exe "$svc")" "$work/app/app/service"
  oci_layer "$work/root" "$work/root.tar.gz" && oci_layer "$work/app" "$work/app.tar.gz"
  oci_config "$work/config.json" "$(sed -n 's/^quarkus.container-image.labels."\([a-z.]*\)"=/\1\t/p' "$props" |
    jq -Rn --arg v "$4" --arg rev "$5" --arg created "$OCI_CREATED" --arg cmd "$(native_opts_for "$svc")" \
      --arg port "$(sed -n 's/^quarkus.jib.ports=//p' "$props")/tcp" '{User: "1001", WorkingDir: "/tmp",
      ExposedPorts: {($port): {}}, Env: ["LANG=C.UTF-8"], Entrypoint: ["/app/service"], Cmd: ($cmd | split(" ")),
      Labels: ([inputs | split("\t") | {(.[0]): .[1]}] | add + {"org.opencontainers.image.version": $v,
        "org.opencontainers.image.revision": $rev, "org.opencontainers.image.created": $created}
        | .["org.opencontainers.image.description"] += " Native executable.")}')" \
    "$work/root.tar.gz" "$work/app.tar.gz"
  oci_push_image "$2" "$3" "$4-native" "$work/config.json" "$work/root.tar.gz" "$work/app.tar.gz"
}

# build_service_image SERVICE REGISTRY REPO TAG BASE REVISION: the service's fast-jar on BASE with
# quarkus-container-image-jib, pushed; its JVM flags are java_opts_for's (the chart's
# javaToolOptions carry the same).
build_service_image() {
  local svc="$1" registry="$2" repo="$3" tag="$4" base="$5" revision="$6" jvm_args
  jvm_args="-Djava.util.logging.manager=org.jboss.logmanager.LogManager $(java_opts_for "$svc")"
  mvnw -q package -DskipTests -pl "$svc" \
    -Dquarkus.container-image.build=true -Dquarkus.container-image.push=true \
    -Dquarkus.container-image.registry="$registry" -Dquarkus.container-image.insecure=true \
    -Dquarkus.container-image.group="${repo%/*}" -Dquarkus.container-image.name="${repo##*/}" \
    -Dquarkus.container-image.tag="$tag" -Dquarkus.container-image.additional-tags= \
    -Dquarkus.jib.base-jvm-image="$base" -Dquarkus.jib.jvm-arguments="${jvm_args// /,}" \
    "-Dquarkus.container-image.labels.\"org.opencontainers.image.revision\"=$revision" \
    "-Dquarkus.container-image.labels.\"org.opencontainers.image.created\"=$OCI_CREATED" \
    >"$LOG_DIR/image-$svc.log" 2>&1 || { log_tail "$LOG_DIR/image-$svc.log"; return 1; }
  manifest_digest "$registry" "$repo" "$tag"
}

cmd_images() {
  local registry="${EXAM_IMAGE_REGISTRY:-127.0.0.1:5000}" verify=1
  while [ "$#" -gt 0 ]; do
    case "$1" in
      --registry) registry="${2:?--registry HOST:PORT}"; shift 2 ;;
      --push) shift ;; # always: a daemon-less build ends in a registry
      --no-verify) verify=""; shift ;;
      *) die "images: unknown option $1 (--registry HOST:PORT, --push, --no-verify)" ;;
    esac
  done
  require_java
  need_tool curl curl && need_tool jq jq || return 1
  mkdir -p "$IMAGES_DIR" "$RUN_DIR" "$LOG_DIR"
  local started=$SECONDS tag revision base key repo digest native svc values="$IMAGES_DIR/values.yaml"
  tag="$(chart_tag)"
  revision="$(git -C "$EXAM_HOME" rev-parse HEAD 2>/dev/null || echo unknown)"
  OCI_CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  export OCI_CREATED
  ensure_registry "$registry"

  if [ -n "${EXAM_IMAGE_BASE:-}" ]; then
    # An operator's own base (e.g. registry.access.redhat.com/ubi9/openjdk-17-runtime): the one
    # setting that replaces the locally built one.
    base="$EXAM_IMAGE_BASE"
    say "== base image: $base (EXAM_IMAGE_BASE)"
  else
    say "== base image: jlink JRE"
    base="$(build_base_image "$registry")"
    say "pushed $base ($((SECONDS - started)) s)"
  fi

  say "== suite-common, suite-testing (what the services are built with)"
  mvnw -q install -DskipTests -pl suite-common,suite-testing -am

  {
    say "# Written by ./exam images at $OCI_CREATED (revision $revision): the images it pushed."
    say "# Render the chart with it: helm template exam-suite k8s/chart/exam-suite -f $values"
    say "image:"
    say "  registry: \"$registry\""
    say "  tag: \"$tag\""
    say "services:"
  } >"$values.new"
  local frontend_line=""
  while read -r key repo; do
    if [ "$key" = frontend ]; then
      say "== exam page: $registry/$repo:$tag"
      digest="$(build_page_image "$registry" "$repo" "$tag" "$revision")" || return 1
      frontend_line="frontend: {enabled: true, image: {repository: \"$repo\", digest: \"$digest\"}}"
    else
      svc="${repo##*/}"
      say "== $svc: $registry/$repo:$tag"
      digest="$(build_service_image "$svc" "$registry" "$repo" "$tag" "$base" "$revision")" || return 1
      say "pushed $registry/$repo:$tag@$digest ($((SECONDS - started)) s)"
      native="" # the native flavour (image.flavor: native) when its executable is built
      if [ -x "$(native_exe "$svc")" ]; then
        native="$(build_native_image "$svc" "$registry" "$repo" "$tag" "$revision")" || return 1
        say "pushed $registry/$repo:$tag-native@$native ($((SECONDS - started)) s)"
      else
        say "no native image of $svc: $(native_exe "$svc") is not built (./exam build --native $svc)"
      fi
      say "  $key: {image: {repository: \"$repo\", digest: \"$digest\"${native:+, nativeDigest: \"$native\"}}}" >>"$values.new"
      continue
    fi
    [ -n "$digest" ] || die "no manifest for $registry/$repo:$tag after the push"
    say "pushed $registry/$repo:$tag@$digest ($((SECONDS - started)) s)"
  done < <(chart_repositories)
  [ -n "$frontend_line" ] && say "$frontend_line" >>"$values.new"
  mv -f "$values.new" "$values"
  say "wrote .exam/images/values.yaml ($((SECONDS - started)) s)"

  [ -n "$verify" ] || return 0
  verify_images "$values"
}

# verify_images VALUES: the k8s module's ImagesTest reads every pushed manifest and config from
# the registry's HTTP API and renders the chart with VALUES (tag "images", not in mvn verify).
verify_images() {
  say "== checking the pushed images and the chart's references to them"
  mvnw -q install -DskipTests -pl k8s -am >/dev/null
  mvnw -pl k8s test -Pimages -Dexam.images.values="$1" \
    -Dexam.images.jvm.session-service="$(java_opts_for session-service)" \
    -Dexam.images.jvm.answer-service="$(java_opts_for answer-service)" \
    -Dexam.images.jvm.submission-service="$(java_opts_for submission-service)" \
    -Dexam.images.jvm.grading-saga="$(java_opts_for grading-saga)" \
    -Dexam.images.native.session-service="$(native_opts_for session-service)" \
    -Dexam.images.native.answer-service="$(native_opts_for answer-service)" \
    -Dexam.images.native.submission-service="$(native_opts_for submission-service)" \
    -Dexam.images.native.grading-saga="$(native_opts_for grading-saga)"
}

# --- ./exam test images: the command, then each image run from the registry's bytes ----------

# unpack_image REGISTRY REPO TAG DIR: the image's layers, as pulled from the registry, in DIR
# (whiteouts are not handled: these images have none).
unpack_image() {
  local registry="$1" repo="$2" tag="$3" dir="$4" digest
  rm -rf "$dir" && mkdir -p "$dir"
  for digest in $(curl -fsS -H 'Accept: application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json' \
    "http://$registry/v2/$repo/manifests/$tag" | jq -r '.layers[].digest'); do
    curl -fsS "http://$registry/v2/$repo/blobs/$digest" | tar --warning=no-unknown-keyword -xzf - -C "$dir" || return 1
  done
  curl -fsS -H 'Accept: application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json' \
    "http://$registry/v2/$repo/manifests/$tag" | jq -r .config.digest |
    xargs -I{} curl -fsS "http://$registry/v2/$repo/blobs/{}" >"$dir.config.json"
}

# run_image DIR PORT LOG ARG_FILTER: runs the image unpacked in DIR as its user with its
# entrypoint and command, chroot'ed, with /proc mounted (glibc resolves the JRE's $ORIGIN through it), as a
# container runtime would. chroot cannot set the working directory: relative -jar paths are made
# absolute. Prints the pid.
run_image() {
  local dir="$1" log="$2" user workdir args=() chroot
  chroot="$(command -v chroot)" || { warn "no chroot command"; return 1; }
  user="$(jq -r '.config.User' "$dir.config.json")"
  workdir="$(jq -r '.config.WorkingDir // "/"' "$dir.config.json")"
  while IFS= read -r arg; do
    case "$arg" in *.jar) [ "${arg#/}" = "$arg" ] && arg="$workdir/$arg" ;; esac
    args+=("$arg")
  done < <(jq -r '(.config.Entrypoint + (.config.Cmd // []))[]' "$dir.config.json")
  mkdir -p "$dir/proc" "$dir/dev"
  mount -t proc proc "$dir/proc" || return 1
  mount --bind /dev "$dir/dev" || return 1
  # shellcheck disable=SC2046 # the image's Env, one assignment each
  nohup env -i $(jq -r '.config.Env[]' "$dir.config.json") "${IMAGE_RUN_ENV[@]}" \
    "$chroot" --userspec="$user" "$dir" "${args[@]}" >"$log" 2>&1 </dev/null &
  echo $!
}

stop_image() { # DIR PID
  kill "$2" 2>/dev/null || true
  local waited=0
  while kill -0 "$2" 2>/dev/null && [ "$waited" -lt 30 ]; do sleep 1; waited=$((waited + 1)); done
  kill -9 "$2" 2>/dev/null || true
  umount "$1/proc" "$1/dev" 2>/dev/null || true
}

# smoke_images VALUES: every pushed image started from what the registry serves: the exam page
# serves its files (nginx as 101 on 8080 is the image's contract; it is run here on a free port
# by a copy of its configuration), each service (and its native image, when pushed) becomes ready on a free port against this run's
# PostgreSQL database and Redis, as the chart's pods would.
smoke_images() {
  local values="$1" registry tag key repo dir pid port failed=0 svc
  if [ "$(id -u)" != 0 ]; then
    warn "running the images needs root (chroot, mount /proc): not done; run ./exam test images as root"
    return 1
  fi
  registry="$(awk -F'"' '/^  registry:/ { print $2 }' "$values")"
  tag="$(awk -F'"' '/^  tag:/ { print $2 }' "$values")"
  ensure_keys >/dev/null
  export_service_env
  while read -r key repo suffix; do # suffix: -native for a native image
    dir="$IMAGES_DIR/run/${repo##*/}${suffix:-}"
    unpack_image "$registry" "$repo" "$tag${suffix:-}" "$dir" || { failed=1; continue; }
    if [ "$key" = frontend ]; then
      port="$(free_port 18080)"
      sed "s/listen 8080;/listen 127.0.0.1:$port;/" "$dir/etc/nginx/nginx.conf" >"$dir/etc/nginx/nginx.conf.new"
      mv "$dir/etc/nginx/nginx.conf.new" "$dir/etc/nginx/nginx.conf"
      IMAGE_RUN_ENV=()
      pid="$(run_image "$dir" "$LOG_DIR/image-run-exam-client.log")" || { failed=1; continue; }
      local path status ok=1
      for path in / /sw.js /console/ /sdk/index.js /content.js /vendor/katex/katex.mjs /vendor/katex/fonts/KaTeX_Main-Regular.woff2; do
        status=000
        for _ in $(seq 1 20); do
          status="$(http_status 127.0.0.1 "$port" "$path")"
          [ "$status" = 200 ] && break
          sleep 0.5
        done
        [ "$status" = 200 ] || { warn "exam page image: GET $path → $status"; ok=""; }
      done
      [ "$(http_status 127.0.0.1 "$port" /internal/x)" = 404 ] || { warn "exam page image serves /internal"; ok=""; }
      stop_image "$dir" "$pid"
      if [ -n "$ok" ]; then say "ran $repo: /, /sw.js, /console/, /sdk/index.js, /content.js and the vendored KaTeX served as $(jq -r .config.User "$dir.config.json")"; else failed=1; log_tail "$LOG_DIR/image-run-exam-client.log"; fi
      continue
    fi
    svc="${repo##*/}${suffix:-}"
    port="$(free_port 18181)"
    IMAGE_RUN_ENV=(EXAM_HTTP_PORT="$port" EXAM_DB_NAME="$EXAM_TEST_DB_NAME" EXAM_DB_HOST="$EXAM_DB_HOST"
      EXAM_DB_PORT="$EXAM_DB_PORT" EXAM_DB_USER="$EXAM_DB_USER" EXAM_DB_PASSWORD="$EXAM_DB_PASSWORD"
      EXAM_REDIS_URL="${EXAM_TEST_REDIS_URL:-$EXAM_REDIS_URL}" QUARKUS_PROFILE=prod QUARKUS_OTEL_SDK_DISABLED=true
      EXAM_CANDIDATE_PUBLIC_KEY="$EXAM_CANDIDATE_PUBLIC_KEY" EXAM_OPERATOR_PUBLIC_KEY="$EXAM_OPERATOR_PUBLIC_KEY"
      EXAM_SERVICE_PUBLIC_KEY="$EXAM_SERVICE_PUBLIC_KEY" EXAM_SERVICE_PRIVATE_KEY="$EXAM_SERVICE_PRIVATE_KEY"
      EXAM_CANDIDATE_PRIVATE_KEY="$(key candidate private)" EXAM_PAPER_PRIVATE_KEY="$(key paper private)"
      EXAM_PAPER_PUBLIC_KEY="$(key paper public)" EXAM_ARCHIVE_PRIVATE_KEY="$(key archive private)"
      EXAM_ARCHIVE_PUBLIC_KEY="$(key archive public)" MALLOC_ARENA_MAX=2)
    pid="$(run_image "$dir" "$LOG_DIR/image-run-$svc.log")" || { failed=1; continue; }
    local deadline=$((SECONDS + 120)) ready=""
    while [ "$SECONDS" -lt "$deadline" ] && kill -0 "$pid" 2>/dev/null; do
      [ "$(http_status 127.0.0.1 "$port" /q/health/ready)" = 200 ] && { ready=1; break; }
      sleep 1
    done
    stop_image "$dir" "$pid"
    if [ -n "$ready" ]; then
      say "ran $repo:$tag${suffix:-}: ready on port $port as user $(jq -r .config.User "$dir.config.json") ($(grep -o 'started in [0-9.]*s' "$LOG_DIR/image-run-$svc.log" | head -n 1))"
    else
      warn "$repo did not become ready (log: $LOG_DIR/image-run-$svc.log)"
      log_tail "$LOG_DIR/image-run-$svc.log"
      failed=1
    fi
  done < <(chart_repositories; sed -n 's/^  [a-z]*: {image: {repository: "\([^"]*\)".*nativeDigest.*/service \1 -native/p' "$values")
  return "$failed"
}

stage_images() {
  local registry="${EXAM_IMAGE_REGISTRY:-127.0.0.1:5000}" rc=0 began=$SECONDS
  trap '[ -z "$STARTED_REGISTRY" ] || stop_registry' EXIT
  cmd_images --registry "$registry" || rc=1
  say "./exam images took $((SECONDS - began)) s"
  if [ "$rc" = 0 ]; then
    say "== running each pushed image (chroot, from the registry's layers)"
    smoke_images "$IMAGES_DIR/values.yaml" || rc=1
  fi
  return "$rc"
}
