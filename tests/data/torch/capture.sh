#!/bin/sh
# capture.sh OUT - run on the GPU machine: the profiled capture, then ncu
# over the same steps run unprofiled (the --metrics input of report --kind
# kernels). See capture.py for what each file is.
set -u
out=${1:?usage: capture.sh OUTDIR}
here=$(dirname "$0")
PYTHONUNBUFFERED=1 python3 "$here/capture.py" "$out" || exit 1
gzip -9 -k "$out/train.pt.trace.json"
ls -l "$out"
# ncu: the second step's kernels (skip the first step's launches: warm-up,
# cuBLAS/autotune), duration and throughput, CSV raw page.
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
if [ -n "$ncu" ]; then
    timeout 240 "$ncu" -o "$out/kernels" --clock-control none \
        --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size \
        --launch-skip 150 --launch-count 60 \
        python3 "$here/capture.py" --plain 3 > "$out/ncu.log" 2>&1
    echo "ncu rc=$?"; tail -c 800 "$out/ncu.log"
    "$ncu" --import "$out/kernels.ncu-rep" --csv --page raw > "$out/ncu_raw.csv"
    echo "import rc=$?"; wc -l "$out/ncu_raw.csv"; rm -f "$out/kernels.ncu-rep"
fi
