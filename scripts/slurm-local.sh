#!/usr/bin/env bash
# Runs COMMAND with a single-node Slurm cluster on localhost: munged, slurmctld and slurmd
# (Debian 12 packages slurm-wlm and munge) started from a minimal slurm.conf in a temporary
# folder, on free ports, with SLURM_CONF exported so sbatch, squeue and sinfo talk to it.
# The daemons are stopped and the folder removed when COMMAND ends; nothing is read from or
# written to /etc/slurm or /etc/munge. As root (slurmd starts the jobs' processes).
#   scripts/slurm-local.sh COMMAND [ARGS..]      e.g. scripts/slurm-local.sh sinfo
# The node has the machine's cores (nproc) as CPUs, one per task (select/cons_tres CR_CPU).
set -euo pipefail
if [[ $# -eq 0 ]]; then
  echo "usage: scripts/slurm-local.sh COMMAND [ARGS..]" >&2
  exit 2
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "slurm-local: must run as root (slurmd starts the jobs)" >&2
  exit 1
fi
for c in munged mungekey slurmctld slurmd sinfo; do
  if ! command -v "$c" > /dev/null; then
    echo "slurm-local: '$c' not found: apt-get install --no-install-recommends slurm-wlm munge" >&2
    exit 1
  fi
done

dir=$(mktemp -d /tmp/pivot-slurm.XXXXXX)
chmod 755 "$dir" # munged refuses a socket whose folders others cannot traverse
pids=()
stop() {
  local status=$?
  for ((k = ${#pids[@]} - 1; k >= 0; k--)); do kill "${pids[k]}" 2> /dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2> /dev/null || true; done
  if [[ $status -ne 0 ]]; then
    echo "slurm-local: exit status $status; the end of the daemons' logs:" >&2
    tail -n 5 "$dir"/*.log >&2 || true
  fi
  rm -rf "$dir"
  exit "$status"
}
trap stop EXIT
trap 'exit 130' INT TERM

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
mungekey --create --keyfile="$dir/munge/munge.key"
munged --foreground --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
  --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/seed" \
  > "$dir/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -S $dir/munge/socket ]] && break; sleep 0.1; done

# batch_sched_delay=0: start array tasks as soon as the controller's scheduler runs (once
# a second) instead of deferring batch jobs by its default 3 s.
cat > "$dir/slurm.conf" << EOF
ClusterName=pivot
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$dir/slurm.conf
slurmctld -D -f "$SLURM_CONF" > /dev/null 2>&1 &
pids+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" > /dev/null 2>&1 &
pids+=($!)
for _ in $(seq 300); do
  [[ $(sinfo -h -o %t 2> /dev/null) == idle ]] && break
  sleep 0.1
done
if [[ $(sinfo -h -o %t 2> /dev/null) != idle ]]; then
  echo "slurm-local: the node did not come up idle in 30 s" >&2
  exit 1
fi
echo "slurm-local: node localhost, $(nproc) CPUs, SLURM_CONF=$SLURM_CONF" >&2
"$@"
