#!/usr/bin/env bash
# Assembles a GraalVM-like home that Quarkus's native build can use (quarkus.native.graalvm-home),
# from what this kind of machine can reach: the native-image builder jars on Maven Central, the
# machine's JDK 25 (with JVMCI), OpenJDK 26's Debian source package (for the JDK's static
# libraries) and this directory's own C libraries and launcher (what GraalVM ships but no registry
# publishes). Prints the home's path as its last line. The home is cached by the hash of its inputs:
# a second run with the same inputs costs nothing.
#
#   native-toolchain/toolchain.sh [--print-home]
#
# EXAM_NATIVE_JDK (JDK 25 with jdk.internal.vm.ci), EXAM_NATIVE_CACHE (default ~/.m2/exam-native).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
SVM_VERSION=25.0.4
OPENJDK_SOURCE=openjdk-26
OPENJDK_SOURCE_VERSION=26.0.2.1+1-1
jdk="${EXAM_NATIVE_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}"
cache="${EXAM_NATIVE_CACHE:-$HOME/.m2/exam-native}"

say() { printf 'native toolchain: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

[ -x "$jdk/bin/java" ] || die "no JDK 25 at $jdk (set EXAM_NATIVE_JDK)"
"$jdk/bin/java" --list-modules 2>/dev/null | grep -q '^jdk.internal.vm.ci@' ||
  die "$jdk has no jdk.internal.vm.ci (JVMCI): the builder needs it"
jdk_version="$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')"

# The cache key: every input that changes what the home holds.
key="$( {
  echo "svm=$SVM_VERSION src=$OPENJDK_SOURCE=$OPENJDK_SOURCE_VERSION jdk=$jdk_version"
  cd "$here" && find c jdk-static launcher -type f \( -name '*.c' -o -name '*.h' -o -name '*.java' -o -name '*.sh' -o -name 'Makefile' -o -name '*.patch' \) \
    -not -path '*/test/*' | LC_ALL=C sort | xargs sha256sum
  sha256sum toolchain.sh # relative: the key must not depend on where the clone is
} | sha256sum | cut -c1-12)"
home="$cache/graalvm-$SVM_VERSION-$key"

if [ "${1:-}" = "--print-home" ]; then
  echo "$home"
  exit 0
fi
if [ -f "$home/.complete" ]; then
  say "up to date ($home)"
  echo "$home"
  exit 0
fi

mkdir -p "$cache"
# One assembly per home at a time: a second caller waits, then finds it complete.
exec 9>"$cache/.lock-$key"
flock 9
if [ -f "$home/.complete" ]; then
  echo "$home"
  exit 0
fi
work="$cache/work-$key"
rm -rf "$work" "$home.partial"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
started=$SECONDS

say "JDK $jdk_version from $jdk"
# A copy of the JDK becomes the home: the builder finds its libraries relative to java.home.
cp -al "$jdk" "$home.partial" 2>/dev/null || cp -a "$jdk" "$home.partial"
chmod -R u+w "$home.partial"

say "builder jars org.graalvm.nativeimage:svm:$SVM_VERSION (Maven Central, checksums checked)"
cat >"$work/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>org.examsuite</groupId><artifactId>native-toolchain-jars</artifactId><version>1</version>
  <dependencies><dependency><groupId>org.graalvm.nativeimage</groupId><artifactId>svm</artifactId>
  <version>$SVM_VERSION</version></dependency></dependencies></project>
EOF
"$repo/mvnw" -q -B -C -f "$work/pom.xml" dependency:copy-dependencies -DoutputDirectory="$work/jars" >&2
mkdir -p "$home.partial/lib/jvmci" "$home.partial/lib/truffle" "$home.partial/lib/svm/builder"
for jar in "$work"/jars/*.jar; do
  case "$(basename "$jar")" in
    compiler-*|word-*|collections-*|nativeimage-[0-9]*) dest=lib/jvmci ;;
    truffle-*) dest=lib/truffle ;;
    *) dest=lib/svm/builder ;;
  esac
  cp "$jar" "$home.partial/$dest/"
done
[ -n "$(ls "$home.partial"/lib/jvmci/compiler-*.jar 2>/dev/null)" ] || die "no Graal compiler jar was resolved"

say "SubstrateVM's C libraries (native-toolchain/c)"
command -v gcc >/dev/null || die "gcc is needed (apt-get install gcc)"
make -s -C "$here/c" OUT="$home.partial" BUILD="$work/c" install >&2

say "the JDK's static libraries from $OPENJDK_SOURCE $OPENJDK_SOURCE_VERSION sources"
tarball="$(ls "$cache"/sources/${OPENJDK_SOURCE}_*.orig.tar.xz 2>/dev/null | head -n 1 || true)"
if [ -z "$tarball" ]; then
  mkdir -p "$cache/sources"
  if ! apt-get source --download-only "$OPENJDK_SOURCE=$OPENJDK_SOURCE_VERSION" >/dev/null 2>&1; then
    # Debian's sid carries the source package; a deb-src entry of its own, the system's lists untouched.
    lists="$work/apt"
    mkdir -p "$lists/lists/partial"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: sid\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      >"$lists/sid-src.sources"
    apt_opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$lists" -o "Dir::State::Lists=$lists/lists")
    apt-get "${apt_opts[@]}" update >&2
    (cd "$cache/sources" && apt-get "${apt_opts[@]}" source --download-only "$OPENJDK_SOURCE=$OPENJDK_SOURCE_VERSION" >&2) ||
      (cd "$cache/sources" && apt-get "${apt_opts[@]}" source --download-only "$OPENJDK_SOURCE" >&2)
  else
    mv ${OPENJDK_SOURCE}_* "$cache/sources/"
  fi
  tarball="$(ls "$cache"/sources/${OPENJDK_SOURCE}_*.orig.tar.xz | head -n 1)"
fi
"$here/jdk-static/build.sh" "$tarball" "$jdk" "$home.partial" >&2

say "the native-image launcher (native-toolchain/launcher)"
mkdir -p "$home.partial/lib/svm/driver"
"$jdk/bin/javac" -q -d "$home.partial/lib/svm/driver" $(find "$here/launcher/src" -name '*.java') 2>/dev/null ||
  "$jdk/bin/javac" -d "$home.partial/lib/svm/driver" $(find "$here/launcher/src" -name '*.java')
cp "$here/launcher/native-image" "$home.partial/bin/native-image"
sed -i "s/@SVM_VERSION@/$SVM_VERSION/" "$home.partial/bin/native-image"
chmod +x "$home.partial/bin/native-image"
"$home.partial/bin/native-image" --version >&2

touch "$home.partial/.complete"
rm -rf "$home"
mv "$home.partial" "$home"
say "ready in $((SECONDS - started)) s: $home"
echo "$home"
