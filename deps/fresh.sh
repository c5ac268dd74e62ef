#!/bin/bash
# deps/fresh.sh - prove the README's two commands on a machine with
# nothing installed (make fresh).
#
# Builds a bare Debian 12 root in a temporary directory (debootstrap
# --variant=minbase bookworm), installs only make, gcc and git in it,
# clones this repository's HEAD into it, and runs there, as root, exactly
# what the README says: 'make demo', then 'make check'.  Each step prints
# its time; the first that fails stops the run and is named.  Mounts and
# the directory are removed on every way out.
#
# Environment: FRESH_MIRROR (the Debian mirror; by default the first of
# this machine's apt sources, else deb.debian.org), FRESH_DIR (where the
# temporary root goes; /var/tmp by default), FRESH_KEEP=1 (keep the root
# for a look after a failure; its mounts are still removed).
set -euo pipefail

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
if [ "$(id -u)" -ne 0 ]; then
    echo "fresh: debootstrap and chroot need root" >&2
    exit 2
fi

mirror=${FRESH_MIRROR:-}
if [ -z "$mirror" ]; then
    mirror=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*debian\)$/\1/p' \
        /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
fi
mirror=${mirror:-http://deb.debian.org/debian}

dir=$(mktemp -d "${FRESH_DIR:-/var/tmp}/camelog-fresh.XXXXXX")
root=$dir/root
mounts=()

cleanup() {
    st=$?
    # Innermost first; a lazy unmount if a process still holds one.
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" ||
            echo "fresh: could not unmount ${mounts[i]}" >&2
    done
    if grep -q " $dir/" /proc/mounts; then
        echo "fresh: mounts remain under $dir; not removing it" >&2
        exit 1
    fi
    if [ "${FRESH_KEEP:-}" = 1 ] && [ "$st" -ne 0 ]; then
        echo "fresh: kept $dir"
    else
        rm -rf --one-file-system "$dir"
    fi
    exit "$st"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# step NAME COMMAND...: runs and times one step, stops the run naming it.
step() {
    local name=$1 t0 t1 st
    shift
    echo "== fresh: $name"
    t0=$(date +%s)
    set +e
    "$@"
    st=$?
    set -e
    t1=$(date +%s)
    if [ "$st" -ne 0 ]; then
        echo "fresh: FAILED: '$name' exited with status $st" \
            "after $((t1 - t0)) s" >&2
        exit 1
    fi
    echo "fresh: $name: $((t1 - t0)) s"
    times+=("$name: $((t1 - t0)) s")
}
times=()

mount_in() { # type source target
    mkdir -p "$3"
    if [ "$1" = bind ]; then
        mount --bind "$2" "$3"
    else
        mount -t "$1" "$2" "$3"
    fi
    mounts+=("$3")
}

# In the root, as a root login shell would run it: no variable of ours.
in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/sh -c "$1"
}

bootstrap() {
    debootstrap --variant=minbase bookworm "$root" "$mirror" \
        >"$dir/debootstrap.log" 2>&1 || {
        tail -n 20 "$dir/debootstrap.log" >&2
        return 1
    }
}

step "debootstrap --variant=minbase bookworm ($mirror)" bootstrap
# A machine's own files, which debootstrap leaves to the installer:
# without /etc/hosts, localhost does not resolve (chromedriver needs it).
cp /etc/resolv.conf "$root/etc/resolv.conf"
[ -e "$root/etc/hosts" ] ||
    printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost\n' \
        >"$root/etc/hosts"
# A root is not a booted machine: packages install their services but
# start none (a PostgreSQL left running in it would hold its mounts).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
mount_in proc proc "$root/proc"
mount_in sysfs sysfs "$root/sys"
mount_in bind /dev "$root/dev"
mount_in devpts devpts "$root/dev/pts"
mount_in tmpfs tmpfs "$root/dev/shm"
mount_in tmpfs tmpfs "$root/tmp"

base() {
    in_root 'apt-get update && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends make gcc git' \
        >"$dir/base.log" 2>&1 || {
        tail -n 20 "$dir/base.log" >&2
        return 1
    }
}

step "apt-get install make gcc git" base
step "git clone" git clone -q --no-local "$repo" "$root/root/camelog"
echo "fresh: cloned $(git -C "$root/root/camelog" rev-parse --short HEAD)"
step "make demo" in_root 'cd /root/camelog && make demo'
step "make demo, again" in_root 'cd /root/camelog && make demo >/dev/null'
step "make check" in_root 'cd /root/camelog && make check'

echo "fresh: the README's two commands passed in a bare Debian 12 root:"
printf '  %s\n' "${times[@]}"
