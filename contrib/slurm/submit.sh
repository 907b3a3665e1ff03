#!/bin/bash
# submit.sh: check many captures on a Slurm cluster, one part per array
# task, and merge the parts in a job that runs when all tasks have ended.
#
#   contrib/slurm/submit.sh CAPTURES.list [TASKS] [-- DLLPCHECK-OPTIONS...]
#
# CAPTURES.list holds one capture path a line (absolute, or relative to
# the directory you submit from, which the jobs run in: a shared file
# system).  TASKS (default 16) is the number of array tasks; task I checks
# the lines I, I+TASKS, I+2*TASKS, ... so the shares are even whatever the
# list's length, and writes parts/part-I.jsonl.  The options after -- are
# given to every task (the options that shape the analysis, e.g. --role,
# --mps, --stats, must be the same for every part).  The merge job
# (dllpcheck-merge.sbatch) writes report.txt and report.xml (JUnit) and
# ends with the exit status of one run over all the captures: 0 clean,
# 1 findings, 2 an input or a part that could not be read.
#
# Example:
#   find /data/caps -name '*.pcap' | sort > caps.list
#   contrib/slurm/submit.sh caps.list 32 -- --role down=root-port,up=endpoint
#   squeue -u "$USER"            # then: cat report.txt; sacct -j JOBID
#
# Not run by the tests (there is no Slurm where they run); bash -n checks
# it (tests/test-merge.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
list=${1:?usage: submit.sh CAPTURES.list [TASKS] [-- OPTIONS...]}
shift
tasks=16
if [[ $# -gt 0 && $1 != -- ]]; then
	tasks=$1
	shift
fi
[[ ${1-} == -- ]] && shift
n=$(grep -c . "$list")
((tasks > n)) && tasks=$n
((tasks >= 1)) || { echo "submit.sh: $list lists no capture" >&2; exit 2; }
mkdir -p parts logs
rm -f parts/part-*.jsonl
# task indices 1..TASKS (the parts sort by index: %04d)
array=$(sbatch --parsable --array=1-"$tasks" --output=logs/check-%a.out \
	--export=ALL,DLLPCHECK_LIST="$list",DLLPCHECK_TASKS="$tasks" \
	"$here/dllpcheck-array.sbatch" "$@")
# afterany: the merge runs whatever the tasks' statuses (1 is findings);
# it refuses a part that is missing, empty or cut short
sbatch --parsable --dependency=afterany:"$array" --output=logs/merge.out \
	--export=ALL,DLLPCHECK_TASKS="$tasks" "$here/dllpcheck-merge.sbatch"
echo "submit.sh: array job $array ($tasks tasks over $n captures), merge job after it"
