# shellcheck shell=bash
# Daemon-less OCI images for ./exam images (docs/operations.md, "Images"): layers are
# reproducible tar.gz files of a directory, pushed with the registry HTTP API (curl), so no
# Docker, Podman or base image from the internet is needed. Sourced by ./exam.

# oci_layer DIR OUT.tar.gz: a layer holding DIR's contents at /, owned by root, mtime 0, sorted
# (the same files give the same digest, so an unchanged layer is not uploaded again).
oci_layer() {
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    -C "$1" -cf - . | gzip -n -6 >"$2"
}

oci_sha() { sha256sum "$1" | cut -d' ' -f1; }

# oci_push_blob REGISTRY REPO FILE: uploads FILE unless the registry has it; prints its digest.
oci_push_blob() {
  local registry="$1" repo="$2" file="$3" digest location
  digest="sha256:$(oci_sha "$file")"
  if ! curl -fs -o /dev/null -I "http://$registry/v2/$repo/blobs/$digest"; then
    location="$(curl -fsS -X POST -o /dev/null -D - "http://$registry/v2/$repo/blobs/uploads/" |
      tr -d '\r' | awk 'tolower($1) == "location:" { print $2 }')"
    [ -n "$location" ] || { warn "no upload location from $registry for $repo"; return 1; }
    case "$location" in http*) ;; *) location="http://$registry$location" ;; esac
    case "$location" in *\?*) location="$location&digest=$digest" ;; *) location="$location?digest=$digest" ;; esac
    curl -fsS -o /dev/null -X PUT -H 'Content-Type: application/octet-stream' \
      --data-binary "@$file" "$location" || { warn "upload of $file to $registry/$repo failed"; return 1; }
  fi
  echo "$digest"
}

# oci_push_image REGISTRY REPO TAG CONFIG.json LAYER.tar.gz...: pushes the layers, the config
# and an OCI manifest; prints the manifest's digest.
oci_push_image() {
  local registry="$1" repo="$2" tag="$3" config="$4" layer manifest digest layers=""
  shift 4
  for layer in "$@"; do
    digest="$(oci_push_blob "$registry" "$repo" "$layer")" || return 1
    layers="$layers${layers:+,}{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"$digest\",\"size\":$(stat -c %s "$layer")}"
  done
  digest="$(oci_push_blob "$registry" "$repo" "$config")" || return 1
  manifest="$(dirname "$config")/manifest.json"
  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"%s","size":%s},"layers":[%s]}' \
    "$digest" "$(stat -c %s "$config")" "$layers" >"$manifest"
  curl -fsS -o /dev/null -X PUT -H 'Content-Type: application/vnd.oci.image.manifest.v1+json' \
    --data-binary "@$manifest" "http://$registry/v2/$repo/manifests/$tag" ||
    { warn "manifest of $registry/$repo:$tag refused"; return 1; }
  echo "sha256:$(oci_sha "$manifest")"
}

# oci_config OUT.json JSON_CONFIG LAYER.tar.gz...: an image config (linux/amd64) whose rootfs
# lists the layers' uncompressed digests; JSON_CONFIG is the "config" object (User, Env, ...).
oci_config() {
  local out="$1" config="$2" layer ids=""
  shift 2
  for layer in "$@"; do
    ids="$ids${ids:+,}\"sha256:$(gzip -dc "$layer" | sha256sum | cut -d' ' -f1)\""
  done
  jq -cn --argjson config "$config" --argjson ids "[$ids]" --arg created "${OCI_CREATED:-1970-01-01T00:00:00Z}" \
    '{architecture: "amd64", os: "linux", created: $created, config: $config,
      rootfs: {type: "layers", diff_ids: $ids},
      history: [$ids[] | {created: $created, created_by: "./exam images"}]}' >"$out"
}

# oci_copy_libs ROOT FILE...: copies into ROOT the shared libraries FILE... load (ldd), with the
# dynamic loader, at their paths on this machine: the minimal root filesystem the images need.
# Libraries under OCI_OWN_LIBS (the directory FILE... come from) are left out: they are in it.
oci_copy_libs() {
  local root="$1" lib
  shift
  for lib in $(ldd "$@" 2>/dev/null | awk '/=> \// { print $3 } /^\s*\/lib/ { print $1 }' | sort -u); do
    case "$lib" in "$OCI_OWN_LIBS"/*) continue ;; esac # the image's own (RPATH $ORIGIN) libraries
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
}

# oci_rootfs ROOT: /etc/passwd and /etc/group with the images' users (185 for the JVM
# services, as in the ubi openjdk images; 1001 for the native ones, as in ubi-micro; 101 for the
# page's nginx, as in nginx-unprivileged),
# /tmp, name resolution and the CA certificates of this machine.
oci_rootfs() {
  local root="$1"
  mkdir -p "$root/etc" "$root/tmp" "$root/usr/bin" "$root/usr/lib" "$root/lib64"
  chmod 1777 "$root/tmp"
  printf 'root:x:0:0:root:/root:/sbin/nologin\ndefault:x:185:185:app:/tmp:/sbin/nologin\nnative:x:1001:1001:app:/tmp:/sbin/nologin\nnginx:x:101:101:nginx:/tmp:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n' >"$root/etc/passwd"
  printf 'root:x:0:\ndefault:x:185:\nnative:x:1001:\nnginx:x:101:\nnogroup:x:65534:\n' >"$root/etc/group"
  printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$root/etc/nsswitch.conf"
  printf '127.0.0.1 localhost\n::1 localhost\n' >"$root/etc/hosts"
  if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    mkdir -p "$root/etc/ssl/certs" && cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
  fi
}
