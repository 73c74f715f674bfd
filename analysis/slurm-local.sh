#!/usr/bin/env bash
# A private single-node Slurm cluster on this machine, to try `sweep.py run --slurm`:
#
#   sudo analysis/slurm-local.sh start [DIR]    # prints: export SLURM_CONF=DIR/slurm.conf
#   sudo analysis/slurm-local.sh status [DIR]   # whether each daemon runs (exit 3 if not all)
#   sudo analysis/slurm-local.sh stop [DIR]     # stops them by their pid files
#
# DIR (default $HOME/.d2dlearn-slurm) holds everything (but munged's socket where a folder
# above DIR is not searchable by all, as root's home: then /run/d2dlearn-slurm-HASH, which
# `stop` removes): a generated munge key, slurm.conf
# (this host as `slurmd -C` describes it, reached on 127.0.0.1 at two free ports; private
# state and spool folders; proctrack/linuxproc and task/none, so no cgroups; no
# accounting; one partition `local`), the daemons' pid files (munged.pid, slurmctld.pid,
# slurmd.pid) and their logs in DIR/log. munged, slurmctld and slurmd run as root (slurmd
# must), detached from this shell. `start` waits until the node is idle (60 s at most; on
# failure it stops what it started and prints the logs' last lines). The Slurm commands
# (sbatch, squeue, ...) find the cluster through SLURM_CONF: `start` prints the line to
# export on stdout (its other messages go to stderr), so
#   eval "$(sudo analysis/slurm-local.sh start)"
# sets it in the current shell. Needs Debian's slurm-wlm and munge packages, and root.
# tests/analysis/test_sweep_slurm.py starts and stops its cluster with this script.
set -Eeuo pipefail

PROG=slurm-local.sh
DAEMONS=(munged slurmctld slurmd)
PROGRAMS=(munged mungekey slurmctld slurmd sbatch squeue sinfo scancel)

die() {
    echo "$PROG: error: $*" >&2
    exit 2
}

say() {
    echo "$PROG: $*" >&2
}

usage() {
    die "usage: $PROG start|stop|status [DIR] (DIR default \$HOME/.d2dlearn-slurm)"
}

# The path of a program (PATH, then /usr/sbin and /sbin, where Debian puts the daemons).
find_program() {
    local d
    local IFS=:
    for d in $PATH /usr/sbin /sbin; do
        if [[ -n "$d" && -f "$d/$1" && -x "$d/$1" ]]; then
            echo "$d/$1"
            return 0
        fi
    done
    return 1
}

# The pid of a daemon from its pid file if that process runs and is that daemon, else
# nothing (a stale file, or a pid reused by another program, does not count).
daemon_pid() {
    local name=$1 pid
    pid=$(tr -dc '0-9' 2> /dev/null < "$DIR/$name.pid" || true)
    if [[ -n "$pid" ]] && is_alive "$pid" "$name"; then
        echo "$pid"
    fi
    return 0
}

# Whether process PID runs (not a zombie) and is program NAME.
is_alive() {
    local stat
    [[ "$(cat "/proc/$1/comm" 2> /dev/null)" == "$2" ]] || return 1
    stat=$(cat "/proc/$1/stat" 2> /dev/null) || return 1
    stat=${stat##*) }
    [[ "${stat%% *}" != Z ]]
}

# The folder of munged's socket: DIR if every folder above it is searchable by all (munged
# requires that), else (root's home is not) one of its own in /run, named after DIR.
socket_dir() {
    local d=$DIR
    while [[ "$d" != / ]]; do
        d=$(dirname "$d")
        if (((0$(stat -c %a "$d") & 1) == 0)); then
            echo "/run/d2dlearn-slurm-$(printf %s "$DIR" | sha1sum | cut -c1-12)"
            return 0
        fi
    done
    echo "$DIR"
}

free_port() {
    /usr/bin/python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Start a daemon detached from this shell (its own session, output in DIR/log/NAME.out) and
# record its pid in DIR/NAME.pid (the daemon writes the same pid there itself) and in
# DIR/NAME.spawned (which only this script writes: see spawned_alive).
spawn() {
    local name=$1
    shift
    setsid "$@" > "$DIR/log/$name.out" 2>&1 < /dev/null &
    echo $! > "$DIR/$name.pid"
    echo $! > "$DIR/$name.spawned"
}

# Whether the process spawn started for NAME still runs (not a zombie), whatever its name:
# while it starts it may still be `setsid` (not yet the daemon, which daemon_pid wants), and
# the daemon truncates and rewrites NAME.pid (an empty file for an instant). Checking
# daemon_pid there said "munged exited" of a munged that was starting (a CI run under load).
spawned_alive() {
    local pid stat
    pid=$(tr -dc '0-9' 2> /dev/null < "$DIR/$1.spawned" || true)
    [[ -n "$pid" ]] || return 1
    stat=$(cat "/proc/$pid/stat" 2> /dev/null) || return 1
    stat=${stat##*) }
    [[ "${stat%% *}" != Z ]]
}

logs() {
    local f
    for f in "$DIR"/log/*; do
        [[ -f "$f" ]] || continue
        echo "--- $f" >&2
        tail -n 15 "$f" >&2
    done
}

check_can_start() {
    [[ "$(id -u)" -eq 0 ]] || die "must run as root (slurmd and munged run as root): sudo $0 $*"
    local p missing=()
    for p in "${PROGRAMS[@]}"; do
        find_program "$p" > /dev/null || missing+=("$p")
    done
    if ((${#missing[@]})); then
        die "missing ${missing[*]}: install Debian's packages slurm-wlm and munge" \
            "(apt-get install slurm-wlm munge)"
    fi
}

stop_daemons() {
    local name pid k i
    for ((i = ${#DAEMONS[@]} - 1; i >= 0; i--)); do  # slurmd, slurmctld, munged
        name=${DAEMONS[i]}
        pid=$(daemon_pid "$name")
        if [[ -n "$pid" ]]; then
            kill -TERM "$pid" 2> /dev/null || true
            # Until the process has ended (it removes its pid file before that).
            for ((k = 0; k < 200; k++)); do  # 20 s, then SIGKILL
                is_alive "$pid" "$name" || break
                sleep 0.1
            done
            if is_alive "$pid" "$name"; then
                kill -KILL "$pid" 2> /dev/null || true
                say "$name (pid $pid) did not stop in 20 s: killed"
            fi
            say "stopped $name (pid $pid)"
        elif spawned_alive "$name"; then
            # Started by spawn but not yet the daemon (still setsid): killed before it is.
            pid=$(tr -dc '0-9' < "$DIR/$name.spawned")
            if [[ "$(cat "/proc/$pid/comm" 2> /dev/null)" =~ ^(setsid|$name)$ ]]; then
                kill -KILL "$pid" 2> /dev/null || true
                say "stopped $name (pid $pid) while it started"
            fi
        fi
        rm -f "$DIR/$name.pid" "$DIR/$name.spawned"
    done
    local sock_dir
    sock_dir=$(socket_dir)
    if [[ "$sock_dir" == /run/d2dlearn-slurm-* ]]; then
        rm -rf "$sock_dir"
    fi
}

cmd_start() {
    check_can_start "$@"
    local name running=()
    for name in "${DAEMONS[@]}"; do
        [[ -z "$(daemon_pid "$name")" ]] || running+=("$name")
    done
    if ((${#running[@]} == ${#DAEMONS[@]})); then
        say "already running in $DIR"
        echo "export SLURM_CONF=$DIR/slurm.conf"
        return 0
    fi
    if ((${#running[@]})); then
        die "${running[*]} already running from $DIR, not all daemons: $PROG stop $DIR first"
    fi
    mkdir -p "$DIR"
    DIR=$(cd "$DIR" && pwd -P)
    chmod 755 "$DIR"  # for munged's socket, and for users' sbatch to read slurm.conf
    rm -rf "$DIR/state" "$DIR/spool" "$DIR/log" "$DIR/munge.key"
    mkdir -p "$DIR/state" "$DIR/spool" "$DIR/log"
    trap 'say "start failed: stopping what it started"; logs; stop_daemons' ERR
    # Daemons in a clean environment but for SLURM_CONF (no SLURM_* of an outer job).
    local v
    for v in $(compgen -e); do
        [[ "$v" != SLURM* ]] || unset "$v"
    done
    export SLURM_CONF="$DIR/slurm.conf"
    "$(find_program mungekey)" --create --keyfile="$DIR/munge.key"
    local sock
    sock="$(socket_dir)/munge.socket"
    mkdir -p -m 755 "$(dirname "$sock")"
    rm -f "$sock"
    spawn munged "$(find_program munged)" -F --key-file="$DIR/munge.key" --socket="$sock" \
        --pid-file="$DIR/munged.pid" --seed-file="$DIR/munged.seed" \
        --log-file="$DIR/log/munged.log"
    local k
    for ((k = 0; k < 400; k++)); do  # 20 s
        [[ ! -S "$sock" ]] || break
        spawned_alive munged || { say "munged exited"; false; }
        sleep 0.05
    done
    [[ -S "$sock" ]] || { say "munged did not open its socket in 20 s"; false; }
    local node
    read -r -a node < <("$(find_program slurmd)" -C | head -n 1)
    local host=${node[0]#*=}
    cat > "$SLURM_CONF" << EOF
ClusterName=d2dlearnlocal
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
${node[0]} NodeAddr=127.0.0.1 ${node[*]:1}
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    spawn slurmctld "$(find_program slurmctld)" -D -f "$SLURM_CONF"
    spawn slurmd "$(find_program slurmd)" -D -f "$SLURM_CONF"
    local state="" sinfo
    sinfo=$(find_program sinfo)
    for ((k = 0; k < 300; k++)); do  # 60 s
        state=$("$sinfo" -h -o %T 2> /dev/null || true)
        [[ "$state" != idle ]] || break
        for name in "${DAEMONS[@]}"; do
            spawned_alive "$name" || { say "$name exited"; false; }
        done
        sleep 0.2
    done
    [[ "$state" == idle ]] || { say "the node is not up after 60 s (state '$state')"; false; }
    trap - ERR
    say "munged, slurmctld and slurmd run from $DIR (node $host, partition local);" \
        "stop them with: $0 stop $DIR"
    echo "export SLURM_CONF=$DIR/slurm.conf"
}

cmd_status() {
    local name pid all=0
    for name in "${DAEMONS[@]}"; do
        pid=$(daemon_pid "$name")
        if [[ -n "$pid" ]]; then
            echo "$name: running (pid $pid)"
        else
            echo "$name: not running"
            all=3
        fi
    done
    [[ ! -f "$DIR/slurm.conf" ]] || echo "export SLURM_CONF=$DIR/slurm.conf"
    return $all
}

cmd_stop() {
    [[ "$(id -u)" -eq 0 ]] || die "must run as root (the daemons run as root): sudo $0 $*"
    stop_daemons
}

(($# >= 1 && $# <= 2)) || usage
COMMAND=$1
DIR=${2:-${HOME:?HOME is not set; give DIR}/.d2dlearn-slurm}
[[ -n "$DIR" ]] || die "DIR: empty; give a folder"
case "$COMMAND" in
    start) cmd_start "$@" ;;
    status) cmd_status ;;
    stop) cmd_stop "$@" ;;
    *) die "$COMMAND: unknown command (accepted: start, stop, status)" ;;
esac
