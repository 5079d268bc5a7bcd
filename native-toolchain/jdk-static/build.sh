#!/usr/bin/env bash
# Builds the JDK static libraries SubstrateVM links into native executables:
#   <out>/lib/static/linux-amd64/glibc/{libjava,libnio,libnet,libzip,libextnet,libmanagement_ext}.a
# from OpenJDK 26 C sources, checked against the JNI signatures of a JDK 25 (javac -h over its src.zip).
# Usage: build.sh <openjdk-26 orig tarball or extracted dir> <jdk25-home> <out-graalvm-home>
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <openjdk-26 orig tarball | extracted dir> <jdk25-home> <out-graalvm-home>" >&2; exit 2; }
SRC=$(realpath "$1"); JDK=$(realpath "$2"); OUT=$(realpath -m "$3")
DEST=$OUT/lib/static/linux-amd64/glibc
LIBS="java nio net zip extnet management_ext"
HERE=$(cd "$(dirname "$0")" && pwd)
[ -f "$JDK/lib/src.zip" ] && [ -f "$JDK/include/jni.h" ] || { echo "$JDK: no lib/src.zip or include/jni.h" >&2; exit 1; }

# Source directories per library (relative to the OpenJDK source root; share/unix/linux variants).
dirs_of() {
  case $1 in
    java|nio|net|zip) echo src/java.base/{share,unix,linux}/native/lib$1 ;;
    extnet)           echo src/jdk.net/linux/native/libextnet ;;
    management_ext)   echo src/jdk.management/{share,unix,linux}/native/libmanagement_ext ;;
  esac
}
HDR_DIRS="src/hotspot/share/include src/hotspot/os/posix/include"   # jvm.h, jvm_md.h, jmm.h, jvm_io.h ...
existing() { for d in "$@"; do if [ -d "$d" ]; then echo "$d"; fi; done; }
all_dirs() { existing $(for l in $LIBS; do dirs_of $l; done); }

# Left out (one reason each). Everything else stays: the image links these archives without
# --whole-archive, so an object is only pulled in when the image references one of its symbols.
#   Class.c         - SubstrateVM substitutes java.lang.Class (DynamicHub); no JVM_* counterparts exist.
#   ConstantPool.c  - SubstrateVM substitutes jdk.internal.reflect.ConstantPool; JVM_ConstantPool* changed in 26.
#   VirtualThread.c - SubstrateVM substitutes VirtualThread.registerNatives; calls 26-only JVM_VirtualThread*Transition.
#   Reference.c     - SubstrateVM has its own Reference handling/ReferenceHandler; calls 26-only JVM_ReferenceGet.
#   jio.c           - empty under STATIC_BUILD (jio_snprintf/jio_fprintf come from SubstrateVM's libjvm.a).
EXCLUDE="Class.c ConstantPool.c VirtualThread.c Reference.c jio.c"

# ---- up-to-date check ------------------------------------------------------------------------
if [ -f "$SRC" ]; then src_sum=$(sha256sum "$SRC" | cut -c1-64)
else src_sum=$(cd "$SRC" && find $(all_dirs) $HDR_DIRS -type f | sort | xargs sha256sum | sha256sum | cut -c1-64); fi
key=$(printf '%s\n' "$src_sum" "$(sha256sum "$JDK/lib/src.zip" "$JDK/release" "$HERE/build.sh" | cut -c1-64)" "$(gcc --version | head -1)" | sha256sum | cut -c1-64)
report() { for l in $LIBS; do echo "lib$l.a: $(ar t "$DEST/lib$l.a" | wc -l) objects"; done; }
built() { for l in $LIBS; do [ -f "$DEST/lib$l.a" ] || return 1; done; }
if [ "$(cat "$DEST/.jdk-static.stamp" 2>/dev/null)" = "$key" ] && built; then
  echo "jdk-static: up to date ($DEST)"; report; exit 0
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/jdk-static.XXXXXX"); trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$W"' EXIT
# ---- 1. the needed OpenJDK 26 sources ---------------------------------------------------------
mkdir -p "$W/src"
if [ -f "$SRC" ]; then
  tar -xf "$SRC" -C "$W/src" --strip-components=1 --wildcards --no-wildcards-match-slash \
    '*/src/java.base/*/native/libjava/*' '*/src/java.base/*/native/libnet/*' '*/src/java.base/*/native/libnio/*' \
    '*/src/java.base/*/native/libzip/*' \
    '*/src/jdk.net/*/native/libextnet/*' '*/src/jdk.management/*/native/libmanagement_ext/*' \
    '*/src/hotspot/share/include/*' '*/src/hotspot/os/posix/include/*'
else
  (cd "$SRC" && tar -cf - $(all_dirs) $HDR_DIRS) | tar -xf - -C "$W/src"
fi
cd "$W/src"

# ---- 2. JNI headers from the JDK 25's own sources (javac -h) ----------------------------------
# The classes: those whose Java_* functions the C files define, plus every '#include "x_y_Z.h"' that is
# not one of the C sources' own headers. All generated headers are force-included into every C file, so
# a native whose JDK 25 signature differs from the 26 definition is a compile error.
ALLDIRS=$(all_dirs)
find $ALLDIRS $HDR_DIRS "$JDK/include" -name '*.h' -printf '%f\n' | sort -u > "$W/have.txt"
{ find $ALLDIRS -name '*.[ch]' -exec grep -ho '^ *# *include *"[^"/]*\.h"' {} + | sed 's/.*"\(.*\)"/\1/' | sort -u |
    comm -23 - "$W/have.txt" | sed 's/\.h$//'
  find $ALLDIRS -name '*.c' -exec grep -ho '\bJava_[A-Za-z0-9_]*' {} + | sed 's/^Java_//; s/_00024/_/g'
} | sort -u > "$W/jni-names.txt"
unzip -Z1 "$JDK/lib/src.zip" | grep -E '^(java\.base|jdk\.net|jdk\.management)/.*\.java$' > "$W/zip.txt"
awk 'NR==FNR { p=$0; m=p; sub(/\/.*/,"",m); sub(/^[^\/]*\//,"",p); sub(/\.java$/,"",p); cls[p]=m; next }
     { n=split($0, a, "_"); for (k=n; k>0; k--) { p=a[1]; for (i=2;i<=k;i++) p=p "/" a[i]; if (p in cls) { print cls[p] "/" p ".java"; break } } }' \
  "$W/zip.txt" "$W/jni-names.txt" | sort -u > "$W/classes.txt"
(cd "$W" && mkdir -p jsrc gen cls && cd jsrc && unzip -q "$JDK/lib/src.zip" $(cat "$W/classes.txt"))
for m in $(cut -d/ -f1 "$W/classes.txt" | sort -u); do
  "$JDK/bin/javac" -h "$W/gen" -d "$W/cls" -implicit:none -nowarn -Xlint:none -XDsuppressNotes \
    --patch-module "$m=$W/jsrc/$m" $(grep "^$m/" "$W/classes.txt" | sed "s|^|$W/jsrc/|")
done
(cd "$W/gen" && for h in *.h; do echo "#include \"$h\""; done) > "$W/all_jni.h"

# ---- 3. adapt the 26 sources where the JDK 25 native signatures differ ------------------------
# (ProcessImpl_md.c needs nothing against Temurin 25.0.3: forkAndExec/init match its header; the forced
# include in step 4 fails the build should a later JDK 25 update change that.)
# UnixNativeDispatcher.fstatat0: 26 returns the errno (jint) and throws in Java; 25 declares it void and
# expects the C code to throw UnixException. Keep 26's body as a static helper, add a 25-style wrapper.
f=src/java.base/unix/native/libnio/fs/UnixNativeDispatcher.c
perl -0pi -e 's/JNIEXPORT jint JNICALL\nJava_sun_nio_fs_UnixNativeDispatcher_fstatat0\(/static jint\nfstatat0_jdk26(/ or die "fstatat0 not found\n"' "$f"
cat >> "$f" <<'C'

/* jdk-static patch: JDK 25 signature (void, throws UnixException) around the JDK 26 implementation. */
JNIEXPORT void JNICALL
Java_sun_nio_fs_UnixNativeDispatcher_fstatat0(JNIEnv* env, jclass this, jint dfd,
    jlong pathAddress, jint flag, jobject attrs)
{
    jint err = fstatat0_jdk26(env, this, dfd, pathAddress, flag, attrs);
    if (err != 0 && !(*env)->ExceptionCheck(env)) {
        throwUnixException(env, err);
    }
}
C

# ---- 4. compile (flags of OpenJDK's linux-x86_64 release build, make/autoconf/flags-cflags.m4) -
JVER=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$JDK/release")
CFLAGS=(-std=c11 -O2 -fPIC -pipe -fvisibility=hidden -fno-strict-aliasing -fstack-protector -w
  -DSTATIC_BUILD=1 -D_GNU_SOURCE -D_REENTRANT -D_FILE_OFFSET_BITS=64 -DLINUX -DLIBC=gnu -DNDEBUG
  -D_LITTLE_ENDIAN -DARCH='"amd64"' -Damd64 -D_LP64=1 -DARCHPROPNAME='"amd64"' -DUSE_MMAP
  -DVERSION_STRING="\"$JVER\""
  -include jni.h -include "$W/all_jni.h" -I"$JDK/include" -I"$JDK/include/linux" -I"$W/gen" $(printf -- '-I%s ' $HDR_DIRS)
  $(find $ALLDIRS -type d | sed "s|^|-I$W/src/|"))
: > "$W/jobs.txt"
for l in $LIBS; do
  mkdir -p "$W/obj/$l"
  find $(existing $(dirs_of $l)) -name '*.c' | sort | while read -r c; do
    case " $EXCLUDE " in *" $(basename "$c") "*) continue ;; esac
    echo "$l $c $W/obj/$l/$(basename "${c%.c}").o"
  done >> "$W/jobs.txt"
done
[ -z "$(cut -d' ' -f3 "$W/jobs.txt" | sort | uniq -d)" ] || { echo "duplicate object names" >&2; exit 1; }
export CFLAGS_STR; CFLAGS_STR=$(printf '%q ' "${CFLAGS[@]}")
xargs -P "${JOBS:-2}" -n 3 sh -c 'eval "gcc $CFLAGS_STR -DLIBRARY_NAME=$0 -c $1 -o $2" || exit 255' < "$W/jobs.txt"

# ---- 5. archive ------------------------------------------------------------------------------
mkdir -p "$DEST"; rm -f "$DEST/.jdk-static.stamp"
for l in $LIBS; do rm -f "$DEST/lib$l.a"; ar rcs "$DEST/lib$l.a" "$W"/obj/$l/*.o; done
dups=$(for l in $LIBS; do nm -g --defined-only "$DEST/lib$l.a" | awk 'NF==3 {print $3}'; done | sort | uniq -d)
[ -z "$dups" ] || { echo "symbols defined twice across the archives: $dups" >&2; exit 1; }
echo "$key" > "$DEST/.jdk-static.stamp"
report
