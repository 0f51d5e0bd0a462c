#!/bin/sh
# regen.sh - rebuild the two fixtures from the real files (see README).
# Run from the project root; needs ../shared/traces and ../shared/traces-next.
set -e
d=tests/data/ncujoin
k=../shared/traces/pytorch/resnet50_workers0.pt.trace.json.gz
n=../shared/traces-next/ncu/dsocr_rtx5090/ncu-v2
f="$n/kernel_0001_67bdb7e29d1bb4e0ca0aec954ef18af3/ncu.details.csv
$n/kernel_0003_0a7671622339a06b4a022feebfe90426/ncu.details.csv
$n/kernel_0009_60b6526c428eef70c521b6a4c8ca71db/ncu.details.csv
$n/kernel_0013_178ff748c21ea29399b8568af3cd1f02/ncu.details.csv"
python3 $d/make_fixture.py $k $f --first 16 -o $d/resnet50_first16.csv
python3 $d/make_fixture.py $k $f --first 16 --extra -o $d/resnet50_extra.csv
