# Shell helpers shared by build_wasm.sh and bench/run.sh (sourced, not run): logging, installing
# missing Debian packages, and fetching a Debian source package's upstream tarball.
# The caller sets CACHE (the download folder's parent).

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Installs those of the given packages that are not installed (nothing when all are: idempotent).
# node and npm may come from a non-Debian nodejs package (which bundles npm): checked by command.
ensure_apt_packages() {  # ensure_apt_packages PACKAGE...
  local missing=() p
  for p in "$@"; do
    case "$p" in
      nodejs) command -v node >/dev/null || missing+=(nodejs) ;;
      npm) command -v npm >/dev/null || missing+=(npm) ;;
      *) dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
           missing+=("$p") ;;
    esac
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# A source package's upstream tarball without touching the machine's apt configuration (own
# lists under $CACHE/debsrc), checked against the .dsc's sha256, then unpacked into DEST.
# PACKAGE=VERSION pins a version (when the newest one's files are not on the mirror).
fetch_debian_source() {  # fetch_debian_source PACKAGE[=VERSION] TARBALL_GLOB DEST
  local spec="$1" glob="$2" dest="$3" d="$CACHE/debsrc"
  local pkg="${spec%%=*}"
  mkdir -p "$d/lists/partial"
  local sources=/etc/apt/sources.list.d/debian.sources
  if [ -f "$sources" ]; then
    sed 's/^Types: deb$/Types: deb-src/' "$sources" >"$d/src.sources"
  else
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >"$d/src.list"
  fi
  local opts=(-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$d/lists")
  if [ -f "$d/src.sources" ]; then opts+=(-o Dir::Etc::SourceList="$d/src.sources")
  else opts+=(-o Dir::Etc::SourceList="$d/src.list"); fi
  if ! ls "$d"/$glob >/dev/null 2>&1; then
    log "fetching Debian source package $pkg"
    apt-get "${opts[@]}" update -qq
    (cd "$d" && apt-get "${opts[@]}" source --download-only "$spec" >/dev/null)
  fi
  local tarball dsc want got
  tarball="$(ls "$d"/$glob | head -n1)"
  dsc="$(ls "$d"/${pkg}_*.dsc | head -n1)"
  want="$(awk '/^Checksums-Sha256:/{f=1;next} /^[^ ]/{f=0} f && $3=="'"$(basename "$tarball")"'"{print $1}' "$dsc")"
  got="$(sha256sum "$tarball" | cut -d' ' -f1)"
  if [ -z "$want" ] || [ "$want" != "$got" ]; then
    echo "checksum mismatch for $tarball (want '$want', got '$got')" >&2
    rm -f "$tarball"
    exit 1
  fi
  mkdir -p "$dest"
  tar xf "$tarball" -C "$dest"
}


# zlib's C sources for the WebAssembly builds (share links; natively the system's zlib1g-dev):
# Debian's source package at the version bookworm's zlib1g is, as the security update's files
# are not on every mirror. Emscripten's own -sUSE_ZLIB=1 would download a port at build time.
ensure_zlib_sources() {  # sets ZLIB_SOURCE_DIR
  ZLIB_SOURCE_DIR="$CACHE/zlib/zlib-1.2.13.dfsg"
  if [ ! -f "$ZLIB_SOURCE_DIR/inflate.c" ]; then
    fetch_debian_source zlib=1:1.2.13.dfsg-1 'zlib_1.2.13*.orig.tar.*' "$CACHE/zlib"
  fi
  [ -f "$ZLIB_SOURCE_DIR/inflate.c" ] || { echo "zlib sources missing in $ZLIB_SOURCE_DIR" >&2; exit 1; }
}
