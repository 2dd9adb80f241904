#!/usr/bin/env bash
# A libgrbda whose backend (libgrbda_backends.so.0, the readers and FCL) is not beside it fails with
# a grbda::Error naming the file it looked for, not a crash: libgrbda alone in a scratch directory,
# found first through LD_LIBRARY_PATH, and the grbda command asked to read a URDF.
# Usage: check_missing_backend.sh LIBGRBDA GRBDA_COMMAND MODEL
set -u
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp "$1" "$scratch/libgrbda.so.0"
err=$(LD_LIBRARY_PATH="$scratch" "$2" info "$3" 2>&1 >/dev/null)
status=$?
echo "exit $status: $err"
[ "$status" -eq 1 ] || { echo "expected exit 1 (a grbda::Error)"; exit 1; }
case "$err" in
  *"cannot load its backend library $scratch/libgrbda_backends.so.0"*) exit 0 ;;
  *) echo "the message does not name $scratch/libgrbda_backends.so.0"; exit 1 ;;
esac
