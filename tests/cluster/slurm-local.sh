#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, to check the scripts `gamelab slurm` writes:
# installs Debian's slurm-wlm and munge (root needed), writes a one-node slurm.conf, starts
# munged, slurmctld and slurmd, then for a small experiment
#   1. `gamelab slurm FILE --shards 3`: a job array of 3 shards and a report job after it;
#   2. `gamelab slurm FILE --mpi-ranks 3`: one MPI job of 3 ranks (an MPI build: make mpi);
#   3. a raced file as an array of 2 tasks, task 2 held and then cancelled: task 1 waits while
#      task 2 is pending and stops naming it once it left the queue; both submitted again, the
#      race's rows are the local run's;
# submits each with the submit.sh it wrote, waits for the jobs to leave the queue, and compares
# the rows with a local one-process run (timing columns aside). The daemons are stopped at the
# end. Run by `make test-cluster`; exit 0 only if every walk-through gives the local rows.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
GAMELAB=${GAMELAB:-${CARGO_TARGET_DIR:-$ROOT/target}/release/gamelab}
WORK=$(mktemp -d /tmp/gamelab-slurm.XXXXXX)
say() { echo "== $*"; }

[ "$(id -u)" = 0 ] || { echo "slurm-local.sh: needs root (it installs and starts Slurm)"; exit 1; }
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
  say "installing slurm-wlm and munge (Debian packages)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge > /dev/null
fi
[ -x "$GAMELAB" ] || { echo "no gamelab binary at $GAMELAB: run make mpi first"; exit 1; }

NODE=$(hostname -s)
# The MPI walk-through runs 3 ranks (rank 0 mostly waits for the others) on what may be a
# 2-core machine: the node advertises at least 4 CPUs (config_overrides lets slurmd accept that).
CPUS=$(( $(nproc) < 4 ? 4 : $(nproc) ))
MEM=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))
CONF=/etc/slurm/slurm.conf
say "one-node cluster: node $NODE, $CPUS CPUs, ${MEM} MB"
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
cat > "$CONF" <<CONF
# Written by gamelab's tests/cluster/slurm-local.sh: one node, this machine.
ClusterName=gamelab-local
SlurmctldHost=$NODE
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$NODE CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=local Nodes=$NODE Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF

stop() {
  pkill -x slurmd 2> /dev/null || true
  pkill -x slurmctld 2> /dev/null || true
  pkill -x munged 2> /dev/null || true
}
trap stop EXIT
stop
sleep 1
[ -s /etc/munge/munge.key ] || { dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2> /dev/null; }
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2> /dev/null || true
chmod 0700 /etc/munge; chmod 0400 /etc/munge/munge.key
runuser -u munge -- /usr/sbin/munged
slurmctld
slurmd
for _ in $(seq 60); do
  state=$(sinfo -h -N -o %t 2> /dev/null | head -1 || true)
  [ "$state" = idle ] && break
  sleep 1
done
sinfo
[ "$(sinfo -h -N -o %t | head -1)" = idle ] || { echo "the node did not come up; logs in /var/log/slurm"; tail -20 /var/log/slurm/*.log; exit 1; }

# The experiment: a small tournament (3 jobs) and a small GA, rows in CSV for the comparison.
cat > "$WORK/cluster.toml" <<'TOML'
name = "cluster"
description = "The Slurm walk-through's experiment: a small tournament on 6x6, two MCTS budgets."
kind = "tournament"
game = "othello"
stage = "small6"
seed = 11
repeats = 1
[tournament]
rounds = 10
[openings]
random_plies = 4
[agents.random]
kind = "random"
[agents.greedy]
kind = "greedy"
[agents.mcts]
kind = "simple_mcts"
rollouts = 50
[grid]
"agents.mcts.rollouts" = [25, 50, 100]
TOML

compare() { # compare DIR_A DIR_B [NAME]: the part files of experiment NAME ("cluster"), timing columns dropped
  python3 - "$1" "$2" "${3:-cluster}" <<'PY'
import csv, glob, os, sys
TIMING = {"wall_ms", "first_clock_ms", "second_clock_ms", "first_max_move_ms", "second_max_move_ms", "first_think_ms", "second_think_ms"}
def rows(d):
    out = {}
    for f in sorted(glob.glob(os.path.join(d, "results", sys.argv[3], "games/part-*.csv"))):
        out[os.path.basename(f)] = [{k: v for k, v in r.items() if k not in TIMING} for r in csv.DictReader(open(f))]
    return out
a, b = rows(sys.argv[1]), rows(sys.argv[2])
print(f"   local: {len(a)} parts, {sum(map(len, a.values()))} rows; cluster: {len(b)} parts, {sum(map(len, b.values()))} rows")
sys.exit(0 if a and a == b else 1)
PY
}

wait_for() { # wait_for JOBIDS: until none is in the queue
  for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$1" 2> /dev/null)" ] && return 0
    sleep 1
  done
  echo "jobs $1 still queued after 10 minutes"; squeue; return 1
}

submit_and_check() { # submit_and_check OUT: runs OUT/slurm/cluster/submit.sh and checks the outcome
  local out=$1
  say "bash $out/slurm/cluster/submit.sh"
  local said; said=$(bash "$out/slurm/cluster/submit.sh"); echo "$said"
  local ids; ids=$(echo "$said" | sed -n 's/^submitted: run job \([0-9]*\), report job \([0-9]*\).*/\1,\2/p')
  wait_for "$ids"
  ls "$out/slurm/cluster/logs"
  [ -f "$out/results/cluster/report/report.md" ] || { echo "no report: the report job did not run"; cat "$out"/slurm/cluster/logs/*; exit 1; }
  compare "$WORK/local" "$out" || { echo "the cluster's rows differ from the local run's"; exit 1; }
  echo "   the report job ran after the run: $(head -1 "$out/results/cluster/report/report.md")"
}

say "local run (one process)"
"$GAMELAB" run "$WORK/cluster.toml" --out "$WORK/local" --format csv | tail -1

say "walk-through 1: a job array of 3 shards"
"$GAMELAB" slurm "$WORK/cluster.toml" --out "$WORK/array" --shards 3 --cpus-per-task 1 --time 10:00 --format csv
submit_and_check "$WORK/array"

say "walk-through 2: one MPI job of 3 ranks"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
"$GAMELAB" slurm "$WORK/cluster.toml" --out "$WORK/mpi" --mpi-ranks 3 --cpus-per-task 1 --time 10:00 --format csv
submit_and_check "$WORK/mpi"

say "walk-through 3: a raced file as a job array of 2 tasks, task 2 held in the queue and then cancelled"
# The tasks of a race wait for each other's rows between rounds: task 1 must wait while task 2 is
# pending (however long), and stop, naming it, once task 2 left the queue without playing.
# (The race of the integration tests, tests/common's RACE: this script stands apart from them.)
cat > "$WORK/race.toml" <<'TOML'
name = "race"
description = "The Slurm walk-through's race: three budgets of SimpleMCTS against greedy on 6x6."
kind = "match"
game = "othello"
stage = "small6"
seed = 3
[match]
players = ["mcts", "greedy"]
games = 80
[agents.mcts]
kind = "simple_mcts"
rollouts = 8
[agents.greedy]
kind = "greedy"
[grid]
"agents.mcts.rollouts" = [1, 100, 300]
[race]
blocks_per_round = 4
min_rounds = 2
TOML
"$GAMELAB" run "$WORK/race.toml" --out "$WORK/race-local" --format csv | tail -1
"$GAMELAB" slurm "$WORK/race.toml" --out "$WORK/race" --shards 2 --cpus-per-task 1 --time 10:00 --format csv
scripts="$WORK/race/slurm/race"
array=$(cd "$scripts" && sbatch --parsable --hold run.sbatch); array=${array%%;*}
scontrol release "${array}_1"
log="$scripts/logs/run-${array}_1.out"
for _ in $(seq 300); do grep -q "race: waiting for shard 2/2" "$log" 2> /dev/null && break; sleep 1; done
grep -q "race: waiting for shard 2/2" "$log" || { echo "task 1 did not come to wait for task 2"; cat "$log"; exit 1; }
sleep 25 # more than two polls of the queue (10 s) and the 5 s of checks before a shard gives up
[ "$(squeue -h -j "${array}_1" -o %T)" = RUNNING ] || { echo "task 1 stopped while task 2 was pending"; cat "$log"; exit 1; }
echo "   task 1 waits while task 2 is pending: $(grep -m1 'race: waiting' "$log")"
scancel "${array}_2"
wait_for "$array"
grep -q "Slurm task ${array}_2 left the queue" "$log" || { echo "task 1 did not stop naming task 2"; cat "$log"; exit 1; }
echo "   task 2 cancelled, task 1 stopped: $(grep -o 'shard 2/2 ended before.*left the queue' "$log")"
# Submitted again as the error says, both tasks run the race to its end: the local run's rows.
(cd "$scripts" && sbatch --parsable --array=2,1 run.sbatch > "$WORK/race-again")
wait_for "$(cut -d';' -f1 "$WORK/race-again")"
compare "$WORK/race-local" "$WORK/race" race || { echo "the race's rows on Slurm differ from the local run's"; exit 1; }

say "the walk-throughs wrote the rows of the local runs (files in $WORK)"
