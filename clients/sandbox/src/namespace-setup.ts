/**
 * What runs first inside a run's namespaces, while it still holds the namespace's capabilities, and then
 * gives them up for good before the command starts:
 *
 * - network: brings up the namespace's own loopback (a new network namespace has `lo` down, so tests that
 *   talk to themselves on 127.0.0.1 fail). `ip` is not everywhere (slim images), so `ifconfig`, Python and
 *   Perl (perl-base is in every Debian image) do the same SIOCSIFFLAGS ioctl as fallbacks.
 * - filesystem: every mount read-only, then a fresh tmpfs on /tmp and /dev/shm (private, gone with the run)
 *   and the checkout, the run's home and any other directory the caller names (a shared package cache)
 *   bound back writable at their own paths. That holds for root too: a read-only mount binds whoever owns
 *   the files. The directories are opened before /tmp is covered and bound through /proc/self/fd, because
 *   their paths may lie under the /tmp that is covered. The command runs in the first one, the checkout.
 *   The sandbox runner also names directories to hide (its control socket's: an empty read-only tmpfs covers
 *   them, since a socket on a read-only mount still accepts connections) and paths inside the writable ones
 *   to keep read-only (the checkout's `.git`: hooks and config there run later with the agent's credentials).
 * - capabilities: all dropped (bounding set included, no new privileges), so the command cannot remount
 *   anything writable, write kernel settings in /proc/sys as uid 0, or leave its cgroup. (/proc is
 *   read-only too, so the command cannot set up user namespaces of its own.)
 *
 * A failing step stops the run (exit 125, with the reason) rather than running the command less contained
 * than the probe promised.
 */

/**
 * Arguments: network (0/1), filesystem (0/1), tmpfs size in bytes, the writable directories, then optionally
 * `--hide` and directories to cover, `--read-only` and paths to keep read-only, then `--` and the command.
 */
export const NAMESPACE_SETUP = String.raw`
fail() { echo "farm-sandbox: $1" >&2; exit 125; }
net=$1 fs=$2 tmpsize=$3 n=0 nh=0 nr=0 group=w
shift 3
while [ "$1" != -- ]; do
  case $1 in
    --hide) group=h ;;
    --read-only) group=r ;;
    *) case $group in
         w) n=$((n + 1)); eval "dir$n=\$1" ;;
         h) nh=$((nh + 1)); eval "hide$nh=\$1" ;;
         r) nr=$((nr + 1)); eval "ro$nr=\$1" ;;
       esac ;;
  esac
  shift
done
shift
if [ "$net" = 1 ]; then
  ip link set lo up 2>/dev/null || ifconfig lo up 2>/dev/null ||
  python3 -c 'import fcntl,socket,struct; fcntl.ioctl(socket.socket(socket.AF_INET, socket.SOCK_DGRAM), 0x8914, struct.pack("16sH22x", b"lo", 0x49))' 2>/dev/null ||
  perl -MSocket -e 'socket(my $s, PF_INET, SOCK_DGRAM, 0) or die; my $r = pack("a16sx22", "lo", 0x49); ioctl($s, 0x8914, $r) or die' 2>/dev/null ||
  echo "farm-sandbox: the loopback interface could not be brought up" >&2
fi
# Found before /tmp is covered: a PATH entry may lie under it (a symlink mirror of /usr/bin, say).
mount=$(command -v mount) && mount=$(readlink -f "$mount")
setpriv=$(command -v setpriv) && setpriv=$(readlink -f "$setpriv")
mkdir=$(command -v mkdir) && mkdir=$(readlink -f "$mkdir")
if [ "$fs" = 1 ]; then
  [ -n "$mount" ] || fail "mount is missing"
  i=1; while [ $i -le $n ]; do eval "exec $((i + 2))<"\$dir$i"" || fail "cannot open a writable directory"; i=$((i + 1)); done
  # A mount that went away meanwhile (another program's container or namespace ending) needs nothing; any
  # other failure is tried again with a fresh list, then stops the run.
  readonly_all() {
    sed -n 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .*/\1/p' /proc/self/mountinfo | while read -r escaped; do
      point=$(printf '%b' "$(printf '%s' "$escaped" | sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g')")
      err=$("$mount" -o remount,bind,ro "$point" 2>&1) && continue
      cut -d' ' -f5 /proc/self/mountinfo | grep -qxF -- "$escaped" || continue
      echo "$err" >&2
      exit 1
    done
  }
  readonly_all 2>/dev/null || readonly_all 2>/dev/null || readonly_all || fail "cannot make the filesystem read-only"
  i=1
  while [ $i -le $nh ]; do
    eval "h=\$hide$i"
    if [ -d "$h" ]; then "$mount" -t tmpfs -o ro,size=4k,mode=0555 farm-hidden "$h" || fail "cannot hide $h"; fi
    i=$((i + 1))
  done
  "$mount" -t tmpfs -o "size=$tmpsize,mode=1777" farm-tmp /tmp || fail "cannot mount a private /tmp"
  if [ -d /dev/shm ]; then "$mount" -t tmpfs -o "size=$tmpsize,mode=1777" farm-shm /dev/shm || fail "cannot mount a private /dev/shm"; fi
  i=1
  while [ $i -le $n ]; do
    eval "dir=\$dir$i"
    "$mkdir" -p "$dir" && "$mount" --no-canonicalize --bind /proc/self/fd/$((i + 2)) "$dir" &&
      "$mount" -o remount,bind,rw "$dir" || fail "cannot make $dir writable"
    eval "exec $((i + 2))<&-"
    i=$((i + 1))
  done
  i=1
  while [ $i -le $nr ]; do
    eval "r=\$ro$i"
    # a directory as it was made (never through a symlink a command may have planted), bound read-only onto itself
    if [ -d "$r" ] && [ ! -L "$r" ]; then
      "$mount" --no-canonicalize --bind "$r" "$r" && "$mount" -o remount,bind,ro "$r" || fail "cannot keep $r read-only"
    fi
    i=$((i + 1))
  done
  cd "$dir1" || fail "cannot enter $dir1" # the old working directory is the read-only one below
fi
if [ -n "$setpriv" ]; then
  exec "$setpriv" --inh-caps=-all --bounding-set=-all --no-new-privs -- "$@"
fi
[ "$fs" = 1 ] && fail "setpriv is missing: the command would keep the capabilities to undo the read-only mounts"
exec "$@"
`;

export interface SetupPlan {
  network: boolean;
  filesystem: boolean;
}

/** File descriptors 3 to 9 hold the directories while /tmp is covered (sh redirects single-digit ones only). */
export const MAX_WRITABLE_DIRS = 7;

export interface SetupPaths {
  /** Directories covered by an empty read-only tmpfs (the runner's control socket). */
  hide?: string[];
  /** Directories inside the writable ones kept read-only (a checkout's `.git`); absent ones are skipped. */
  readOnly?: string[];
}

/** The argv prefix that runs the setup inside the namespaces and then the command after it (in `writable[0]`). */
export function namespaceSetup(
  plan: SetupPlan,
  writable: string[],
  tmpBytes: number,
  paths: SetupPaths = {},
): string[] {
  if (writable.length > MAX_WRITABLE_DIRS) throw new RangeError(`at most ${MAX_WRITABLE_DIRS} writable directories`);
  const markers = new Set(['--', '--hide', '--read-only']);
  const all = [...writable, ...(paths.hide ?? []), ...(paths.readOnly ?? [])];
  if (all.some((p) => markers.has(p))) throw new RangeError("a path cannot be one of the set-up's markers");
  return [
    'sh',
    '-c',
    NAMESPACE_SETUP,
    'farm-setup',
    plan.network ? '1' : '0',
    plan.filesystem ? '1' : '0',
    String(tmpBytes),
    ...writable,
    ...(paths.hide?.length ? ['--hide', ...paths.hide] : []),
    ...(paths.readOnly?.length ? ['--read-only', ...paths.readOnly] : []),
    '--',
  ];
}
