#!/bin/sh
# html_page.sh WARPMEM ROOT static|chromium - renders the HTML report of
# tests/data/html_kernels.ptx and checks it with tools/html_check.py: as
# text (static: well-formed, the expected elements) or in headless
# Chromium (chromium: the script ran, no console error, the elements in the
# DOM); skipped (77) without Chromium.  The numbers, from the kernels'
# code (tests/data/html_kernels.cu):
#   4 launches, 3 run, oob fails (exit status 4);
#   7 memory instructions ran: tr_naive's load and store, row_read_col's
#   shared store, shared load and global store, scale's load and store:
#   7 picture slots; 4 source lines with memory instructions (19, 25, 27, 33);
#   tr_naive: 2x2 blocks of 32x32 threads = 128 warps; the store writes a
#   column (lanes 64 floats = 256 B apart): 32 sectors a warp, 4096 in all;
#   the load reads 32 consecutive floats: 4 sectors a warp, 512;
#   row_read_col: 2 blocks of 32 warps = 64 warps; the column read of a
#   32x32 float tile puts all 32 lanes on one bank: 32 wavefronts a warp,
#   2048 in all;
#   occupancy: 3 charts per launch that ran; the 1024-thread blocks of
#   tr_naive and row_read_col give 2 blocks, 64 warps per SM on h200 (warp
#   slots: 64 / 32; their few registers and 4 KiB of shared memory allow more);
#   the pictures (report_picture.c), one per memory instruction: tr_naive's
#   store 32 lanes on 32 sectors, its load on 4; row_read_col's shared load
#   32 lanes on one bank, 32 wavefronts (the tile's column: 128 B apart);
#   in Chromium, a click on tr_naive's "excess" header puts line 19 (its only
#   memory line, 4096 - 512 sectors over the ideal) first, sorted descending.
set -u
wm=$1 root=$2 mode=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
"$wm" sim "$root/tests/data/html_kernels.ptx" --format html --out "$tmp/page.html" 2>"$tmp/err"
st=$?
if [ "$st" -ne 4 ]; then
  echo "FAIL: warpmem sim exited $st, expected 4 (the oob launch fails):"
  cat "$tmp/err"
  exit 1
fi
if [ "$mode" = static ]; then
  set -- --static
else
  # sorting: a click on "excess" puts tr_naive's worst line (19) first
  set -- --js 'document.querySelector("#src-0-0 th[data-key=excess]").click();
document.body.dataset.first = document.querySelector("#src-0-0 tbody.grp").dataset.line;' \
    --expect 'body[data-first=19]=1' --expect 'th.desc=1'
fi
python3 "$root/tools/html_check.py" "$@" "$tmp/page.html" \
  --expect 'section.launch=4' \
  --expect 'section.launch[data-status=failed]=1' \
  --expect 'div.error[data-status=failed]=1' \
  --expect 'svg.mem-chart=section.launch[data-status=ok]' \
  --expect 'svg.mem-chart=3' \
  --expect 'svg.time-bars=3' \
  --expect 'svg.occ-chart=9' \
  --expect 'div.pic[data-instr]=div.minstr' \
  --expect 'div.pic[data-instr]=7' \
  --expect 'tbody.mem=4' \
  --expect 'tbody.grp>=20' \
  --expect 'tr.worst>=2' \
  --expect 'div.source-file[data-found=1]=3' \
  --expect 'div.minstr[data-ptx-line][data-unit=sectors][data-units=4096][data-requests=128]=1' \
  --expect 'div.minstr[data-unit=sectors][data-units=512][data-requests=128]=1' \
  --expect 'div.minstr[data-unit=wavefronts][data-units=2048][data-requests=64]=1' \
  --expect 'svg.occ-chart[data-axis=threads][data-current=1024][data-current-warps=64]=2' \
  --expect 'svg.wm-pic=7' \
  --expect 'svg.wm-pic[data-space=global][data-op=st][data-lanes=32][data-sectors=32]>=1' \
  --expect 'svg.wm-pic[data-space=global][data-op=ld][data-lanes=32][data-sectors=4]>=1' \
  --expect 'svg.wm-pic[data-space=shared][data-op=ld][data-lanes=32][data-wavefronts=32]=1' \
  --expect 'table.sortable>=4'
