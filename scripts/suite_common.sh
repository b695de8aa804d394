# Sourced by the held-out-suite scripts (polybench.sh, rodinia.sh, shoc.sh): what they share.

# Print the calling script's header comment (its usage) and exit 2.
suite_usage() { sed -n '2,/^set -uo/p' "$1" | sed '$d; s/^# \{0,1\}//'; exit 2; }

# suite_checkout NAME DIR: src = DIR's absolute path (exit 2 with a message if there is none).
suite_checkout() { src=$(cd "$2" 2>/dev/null && pwd) || { echo "$1: no such folder: $2" >&2; exit 2; }; }

# suite_setup NAME PREFIX: sets root, build and umbra (UMBRA_BUILD, default build/), work
# (PREFIX_WORK, default /tmp/umbra-NAME; refused inside the repository: third-party code stays
# out of it), modes (PREFIX_MODES, default "off auto always") and timeout_s (PREFIX_TIMEOUT,
# seconds a run, default 1800); makes the work folder.
suite_setup() {
    local name=$1 prefix=$2
    local wvar=${prefix}_WORK mvar=${prefix}_MODES tvar=${prefix}_TIMEOUT
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    build=$(cd "${UMBRA_BUILD:-$root/build}" 2>/dev/null && pwd)
    umbra=$build/umbra
    [ -n "$build" ] && [ -x "$umbra" ] || { echo "$name: no umbra in ${UMBRA_BUILD:-$root/build} (run scripts/build.sh)" >&2; exit 2; }
    work=$(realpath -m "${!wvar:-/tmp/umbra-$name}")
    case "$work/" in "$root"/*) echo "$name: keep $wvar outside the repository" >&2; exit 2 ;; esac
    modes=${!mvar:-off auto always}
    timeout_s=${!tvar:-1800}
    mkdir -p "$work"
}

# hip_suite_build NAME BUILD_DIR: sets umbra and dl (the build folder's umbra and device-library
# folder, which the HIP suites compile against); exit 2 with a message without them.
hip_suite_build() {
    umbra=$2/umbra
    dl=$2/devicelib
    [ -x "$umbra" ] && [ -f "$dl/oclc_isa_version_1100.bc" ] ||
        { echo "$1: $2 has no umbra or devicelib (run scripts/build.sh)" >&2; exit 2; }
}

# suite_work NAME VAR DEFAULT: work = the folder $VAR names (DEFAULT without it), refused inside
# the repository (root): third-party code stays out of it.
suite_work() {
    work=$(realpath -m "${!2:-$3}")
    case "$work/" in "$root"/*) echo "$1: keep $2 outside the repository" >&2; exit 2 ;; esac
}
