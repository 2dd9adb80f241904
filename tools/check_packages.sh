#!/usr/bin/env bash
# Builds grbda's release artefacts from an already built CMake tree and installs each into a
# clean environment (docs/packaging.md):
#   1. the wheel (python3 -m build --wheel --no-isolation, reusing the tree) into a fresh venv that
#      sees only Debian's numpy; `pip install --no-build-isolation .` into a venv that sees Debian's
#      build tools; both smoke-tested (import grbda, forward dynamics, the `grbda` script);
#   2. the Debian packages (cpack -G DEB): libgrbda0, libgrbda-dev, grbda-tools, python3-grbda,
#      installed with `apt-get install ./*.deb` into a clean Debian root (debootstrap minbase of the
#      host's release from the host's configured mirror), where tests/consumer is built against the
#      installed find_package(grbda), `grbda fd` runs on an installed model and python3 imports grbda.
# Offline except for step 2's downloads. Step 2 needs root (debootstrap, chroot) and is skipped
# otherwise. The debootstrap tarball is cached in BUILD_DIR/check-packages/.
# Usage: tools/check_packages.sh [BUILD_DIR]      (default: $GRBDA_BUILD_DIR or build)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
src=$(pwd)
build=$(cd "${1:-${GRBDA_BUILD_DIR:-build}}" && pwd)
work="$build/check-packages"
python=/usr/bin/python3
start=$SECONDS
step() { echo; echo "== check_packages [$((SECONDS - start)) s]: $*"; }

[ -f "$build/CMakeCache.txt" ] || { echo "check_packages.sh: $build is not a configured CMake tree" >&2; exit 1; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
mkdir -p "$work"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/grbda-packages.XXXXXX")
root="$work/debian-root"
cleanup() {
  rm -rf "$tmp"
  # never delete through a mount point left in the chroot
  if [ -d "$root" ] && ! grep -q " $root/" /proc/mounts; then rm -rf "$root"; fi
}
trap cleanup EXIT

step "wheel: python3 -m build --wheel --no-isolation (GRBDA_CMAKE_BUILD_DIR=$build)"
rm -rf "$work/dist"
GRBDA_CMAKE_BUILD_DIR="$build" "$python" -m build --wheel --no-isolation --outdir "$work/dist" "$src" \
  > "$work/wheel-build.log" 2>&1 || { tail -40 "$work/wheel-build.log"; exit 1; }
wheel=$(ls "$work"/dist/grbda-"$version"-*.whl)
echo "built $(basename "$wheel") ($(du -k "$wheel" | cut -f1) kB)"
"$python" - "$wheel" <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
need = ["grbda/__init__.py", "grbda/lib/libgrbda.so.0", "grbda/lib/libgrbda_backends.so.0", "grbda/bin/grbda",
        "grbda/share/grbda/models/four_bar.urdf"]
missing = [n for n in need if n not in names] + ([] if any(n.startswith("grbda/_grbda.") for n in names) else ["grbda/_grbda.*.so"])
scripts = [n for n in names if n.endswith("entry_points.txt")]
if missing or not scripts:
    sys.exit("wheel lacks %s" % (missing or "entry_points.txt"))
print("wheel carries the extension, lib/libgrbda.so.0 and its backend, bin/grbda, %d models and the grbda script"
      % sum(n.startswith("grbda/share/grbda/models/") and n.endswith(".urdf") for n in names))
EOF

# A fresh venv whose only third-party package is Debian's numpy (linked in by a .pth file, with its
# metadata so pip counts the dependency as met): the wheel must bring everything else.
venv="$tmp/venv-wheel"
"$python" -m venv "$venv"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
mkdir "$tmp/debian-numpy"
numpy_dir=$("$python" -c 'import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))')
ln -s "$numpy_dir"/numpy "$numpy_dir"/numpy-*info "$tmp/debian-numpy/"
echo "$tmp/debian-numpy" > "$site/debian-numpy.pth"
"$venv/bin/pip" install --no-index --quiet "$wheel"
runpath=$(readelf -d "$site"/grbda/_grbda*.so | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
[ "$runpath" = '$ORIGIN/lib' ] || { echo "extension RUNPATH is '$runpath', expected \$ORIGIN/lib" >&2; exit 1; }
[ "$("$venv/bin/grbda" --version | grep -o '[0-9][0-9.]*' | head -1)" = "$version" ] \
  || { echo "grbda --version is not $version" >&2; exit 1; }
(cd "$tmp" && "$venv/bin/python" "$src/tools/package_smoke_test.py" "$site/grbda/share/grbda/models/four_bar.urdf" "$venv/bin/grbda")
"$venv/bin/pip" list --format=freeze 2>/dev/null | grep -vE '^(pip|setuptools)==' | tr '\n' ' '; echo "(venv packages)"

step "pip install --no-build-isolation --no-index . into a venv that sees Debian's setuptools, wheel, numpy"
venv2="$tmp/venv-source"
"$python" -m venv --system-site-packages "$venv2"
GRBDA_CMAKE_BUILD_DIR="$build" "$venv2/bin/pip" install --no-build-isolation --no-index --quiet "$src" \
  > "$work/pip-install.log" 2>&1 || { tail -40 "$work/pip-install.log"; exit 1; }
(cd "$tmp" && "$venv2/bin/python" "$src/tools/package_smoke_test.py" "$src/models/six_bar.urdf" "$venv2/bin/grbda")

step "Debian packages: cpack -G DEB"
rm -rf "$build/packages"
(cd "$build" && cpack -G DEB > "$work/cpack.log" 2>&1) || { tail -40 "$work/cpack.log"; exit 1; }
debs=("$build"/packages/*.deb)
for d in "${debs[@]}"; do
  printf '%s\n  Depends: %s\n' "$(basename "$d")" "$(dpkg-deb -f "$d" Depends)"
done
for p in libgrbda0 libgrbda-dev grbda-tools python3-grbda; do
  ls "$build"/packages/"${p}_${version}"-*.deb >/dev/null || { echo "no $p package" >&2; exit 1; }
done

if [ "$(id -u)" -ne 0 ]; then
  step "skipping the clean-root install of the .deb files: it needs root (debootstrap, chroot)"
  exit 0
fi
command -v debootstrap >/dev/null || { echo "check_packages.sh: no debootstrap (tools/install_deps.sh installs it)" >&2; exit 1; }

# The host's release and its configured Debian mirror (the URI serving the release itself), and
# every Debian source of that release (-updates, -security) for the chroot's apt.
. /etc/os-release
codename=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
"$python" - "$codename" > "$tmp/sources.list" <<'EOF'
import glob, sys
codename = sys.argv[1]
entries = []  # (uri, suite, components)
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        lines = open(path).read().splitlines()
    except OSError:
        continue
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if "[" in line:  # deb [arch=... signed-by=...] uri suite components
            line = line[:line.index("[")] + line[line.index("]") + 1:]
        words = line.split()
        if len(words) >= 3 and words[0] == "deb":
            entries.append((words[1], words[2], words[3:]))
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for stanza in open(path).read().split("\n\n"):
        fields = {}
        for line in stanza.splitlines():
            if line and not line.startswith("#") and ":" in line and not line[0].isspace():
                key, value = line.split(":", 1)
                fields[key.strip().lower()] = value.split()
        if "deb" in fields.get("types", []) and fields.get("enabled", ["yes"])[0] != "no":
            for uri in fields.get("uris", []):
                for suite in fields.get("suites", []):
                    entries.append((uri, suite, fields.get("components", [])))
release = [e for e in entries if e[1] == codename and "main" in e[2]]
if not release:
    sys.exit("no Debian source for %s with 'main' in /etc/apt/sources.list*" % codename)
print("# mirror " + release[0][0])
for uri, suite, _ in entries:
    if suite == codename or suite.startswith(codename + "-"):
        print("deb %s %s main" % (uri, suite))
EOF
mirror=$(sed -n 's/^# mirror //p' "$tmp/sources.list")

tarball="$work/debootstrap-$codename-minbase.tgz"
# The consumer's build tools are installed by apt with the .deb files (debootstrap --include=cmake,g++,make
# took 6 min to unpack against 1 min for apt); everything grbda needs must come from the .deb files' Depends.
tools=(cmake g++ make)
if [ ! -f "$tarball" ]; then
  step "debootstrap --make-tarball ($codename minbase, from $mirror)"
  rm -rf "$tmp/bootstrap"
  debootstrap --variant=minbase --make-tarball="$tarball.part" "$codename" "$tmp/bootstrap" "$mirror" \
    > "$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; exit 1; }
  mv "$tarball.part" "$tarball"
fi

step "clean $codename root from $(basename "$tarball") ($(du -m "$tarball" | cut -f1) MB)"
rm -rf "$root"
debootstrap --variant=minbase --unpack-tarball="$tarball" "$codename" "$root" "$mirror" \
  > "$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; exit 1; }
grep -v '^#' "$tmp/sources.list" > "$root/etc/apt/sources.list"
mkdir "$root/tmp/debs" "$root/tmp/consumer"
cp "${debs[@]}" "$root/tmp/debs/"
cp tests/consumer/CMakeLists.txt tests/consumer/main.cpp "$root/tmp/consumer/"
cp tools/package_smoke_test.py "$root/tmp/"

step "apt-get install ./*.deb ${tools[*]} in the clean root"
# Downloaded packages are kept in BUILD_DIR/check-packages/apt-archives for the next run.
mkdir -p "$work/apt-archives"
cp "$work"/apt-archives/*.deb "$root/var/cache/apt/archives/" 2>/dev/null || true
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 \
  sh -ec "apt-get -q update >/dev/null; cd /tmp/debs; apt-get install -y -q --no-install-recommends ./*.deb ${tools[*]}" \
  > "$work/chroot-install.log" 2>&1 || { tail -40 "$work/chroot-install.log"; exit 1; }
cp -n "$root"/var/cache/apt/archives/*.deb "$work/apt-archives/" 2>/dev/null || true
grep -E '^(Get|Setting up)' "$work/chroot-install.log" | grep -E 'grbda|eigen|numpy|urdfdom|tinyxml|spdlog|python3 ' || true

step "in the clean root: tests/consumer against find_package(grbda), grbda fd, import grbda"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 sh -ec '
  models=/usr/share/grbda/models
  cmake -S /tmp/consumer -B /tmp/consumer-build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build /tmp/consumer-build -j2 >/dev/null
  /tmp/consumer-build/grbda_consumer
  /tmp/consumer-build/grbda_consumer $models/double_pendulum.urdf
  grbda fd $models/four_bar.urdf
  cd /tmp && python3 /tmp/package_smoke_test.py $models/four_bar.urdf grbda
  python3 -c "import grbda; assert grbda.__file__.startswith(\"/usr/lib/python3/dist-packages/\"), grbda.__file__"
  test ! -e /usr/include/urdf_model && echo "(no urdfdom, tinyxml2 or spdlog headers were needed)"
'
step "done in $((SECONDS - start)) s"
