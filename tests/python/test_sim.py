"""warpmem.sim: counters from first principles, the CLI's JSON on the same launch, errors."""
import os

import numpy as np
import pytest

import warpmem
from conftest import KERNELS, run_cli

COPY_PTX = os.path.join(KERNELS, "copy.ptx")
LD = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
LD_REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
ST = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
N = 16384


def test_coalesced_copy_counts_n_over_8_sectors():
    x = np.arange(N, dtype=np.float32)
    y = np.zeros(N, np.float32)
    r = warpmem.sim(COPY_PTX, "copy", grid=N // 256, block=256, args=[x, y, N])
    np.testing.assert_array_equal(y, x)          # the output came back into the array
    assert r[LD] == N // 8                        # 4-byte floats, 8 to a 32-byte sector
    assert r[LD_REQ] == N // 32                   # one request a warp instruction
    assert r[ST] == N // 8
    assert r.metrics[LD] / r[LD_REQ] == 4.0       # 4 sectors a request: coalesced


def test_stride2_copy_reads_twice_the_sectors():
    x = np.arange(2 * N, dtype=np.float32)
    y = np.zeros(N, np.float32)
    r = warpmem.sim(COPY_PTX, "copy_stride2", grid=N // 256, block=256, args=[x, y, N])
    np.testing.assert_array_equal(y, x[::2])
    assert r[LD] == 2 * (N // 8)                  # 32 lanes over 256 bytes: 8 sectors a request
    assert r[ST] == N // 8                        # the stores stay coalesced
    rows = r.json["lines"]
    ld = [x for x in rows if x["op"] == "ld" and x["space"] == "global"]
    assert len(ld) == 1 and ld[0]["per_request"] == 8.0 and ld[0]["ideal_per_request"] == 4.0
    assert ld[0]["cu_file"].endswith("copy.cu") and ld[0]["cu_line"] == 13  # in[2 * i]'s line


@pytest.mark.parametrize("kernel,count", [("copy", N), ("copy_stride2", 2 * N)])
def test_same_report_as_the_command(cli, kernel, count):
    """The binding adds nothing: the CLI's JSON on the same launch has the same counters and time."""
    x, y = np.random.default_rng(0).random(count, dtype=np.float32), np.zeros(N, np.float32)
    r = warpmem.sim(COPY_PTX, kernel, grid=N // 256, block=256, args=[x, y, N])
    c = run_cli(cli, COPY_PTX, "--kernel", kernel, "--grid", str(N // 256), "--block", "256",
                "--arg", f"buf:f32:{count}", "--arg", f"buf:f32:{N}", "--arg", f"i32:{N}", "--lines=source")[0]
    assert r.metrics == c["metrics"]
    assert r.time == c["time"] and r.occupancy == c["occupancy"]
    assert r.json["lines"] == c["lines"] and r.json["source_lines"] == c["source_lines"]


def test_cu_source_and_ptx_text(tmp_path):
    if not any(os.access(os.path.join(d, "nvcc"), os.X_OK)
               for d in os.environ.get("PATH", "").split(os.pathsep) + ["/usr/local/cuda/bin"]):
        pytest.skip("no nvcc")
    x, y = np.arange(N, dtype=np.float32), np.zeros(N, np.float32)
    r_cu = warpmem.sim(os.path.join(KERNELS, "copy.cu"), "copy", grid=N // 256, block=256, args=[x, y, N])
    with open(COPY_PTX) as f:
        r_text = warpmem.sim(f.read(), "copy", grid=N // 256, block=256, args=[x, y, N])
    assert r_cu[LD] == r_text[LD] == N // 8


def test_scalars_take_the_parameters_types():
    n, a = 1000, 2.5
    x, y = np.arange(n, dtype=np.float64), np.ones(n)
    warpmem.sim(COPY_PTX, "daxpy", grid=4, block=256, args=[n, a, x, y])   # .s32, .f64: from Python's int, float
    np.testing.assert_array_equal(y, 2.5 * np.arange(n) + 1)


def test_report_shape():
    x, y = np.arange(N, dtype=np.float32), np.zeros(N, np.float32)
    r = warpmem.sim(COPY_PTX, "copy", grid=N // 256, block=256, args=[x, y, N], html=True)
    assert r.occupancy["blocks_per_sm"] >= 1 and 0 < r.occupancy["occupancy_pct"] <= 100
    assert r.predicted_ns > 0 and r.limiter in r.time["bounds_ns"]
    assert r.predicted_ns == r.time["gpu__time_duration.sum"]
    lines = r.source_lines
    rows = lines.to_dict("records") if hasattr(lines, "to_dict") else lines
    assert {x["cu_line"] for x in rows} == {8}    # copy's one line of memory instructions
    page = r._repr_html_()
    assert page.startswith("<iframe") and "srcdoc=" in page and r.html.lstrip().lower().startswith("<!doctype html")
    assert "copy" in repr(r) and len(r) == len(r.metrics) and LD in r


def test_out_of_bounds_raises_the_located_message():
    x, y = np.zeros(N, np.float32), np.zeros(N, np.float32)
    with pytest.raises(warpmem.SimError) as ei:
        warpmem.sim(COPY_PTX, "copy_shifted", grid=N // 256, block=256, args=[x, y, N, 1])
    e = ei.value
    assert e.code == "fault" and e.status == "failed"
    assert "out-of-bounds global load" in e.message and "past the end of arg0" in e.message
    assert e.kernel == "copy_shifted" and e.where == "copy.cu:19"     # in[i + shift]'s line
    # the first lane past the end: the last block's last thread (i + 1 == n)
    assert e.block == (N // 256 - 1, 0, 0) and e.thread == (255, 0, 0)
    assert e.address is not None and e.ptx.startswith(COPY_PTX)


def test_wrong_arguments_raise():
    x = np.zeros(16, np.float32)
    with pytest.raises(warpmem.ArgumentError, match=r"takes 3 arguments .*given 2"):
        warpmem.sim(COPY_PTX, "copy", grid=1, block=16, args=[x, x])
    with pytest.raises(TypeError, match="an integer, given 1.5"):  # ArgumentError is a TypeError too
        warpmem.sim(COPY_PTX, "copy", grid=1, block=16, args=[x, x, 1.5])
    with pytest.raises(warpmem.ArgumentError, match="argument of type dict"):
        warpmem.sim(COPY_PTX, "copy", grid=1, block=16, args=[x, {}, 16])
    with pytest.raises(warpmem.ArgumentError):                     # a buffer where an int goes
        warpmem.sim(COPY_PTX, "copy", grid=1, block=16, args=[x, x, x])
    with pytest.raises(warpmem.ArgumentError, match="out of range|range"):
        warpmem.sim(COPY_PTX, "copy", grid=1, block=16, args=[x, x, 2**40])


def test_bad_sources_raise_located_errors(tmp_path):
    with pytest.raises(warpmem.SimError) as ei:
        warpmem.sim(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() {\n  bogus.op %r1;\n}\n",
                    "k", grid=1, block=1, name="bad.ptx")
    assert ei.value.message.startswith("bad.ptx:5:") and ei.value.status in ("error", "refused")
    with pytest.raises(warpmem.SimError, match="no_such_kernel|has no kernel|kernels"):
        warpmem.sim(COPY_PTX, "no_such_kernel", grid=1, block=1)
    with pytest.raises(warpmem.SimError) as ei:
        warpmem.sim(str(tmp_path / "missing.ptx"), "k", grid=1, block=1)
    assert ei.value.code == "io" and "missing.ptx" in ei.value.message
    with pytest.raises(warpmem.SimError, match='"grid" must be'):
        warpmem.sim(COPY_PTX, "copy", grid=(0,), block=1, args=[])
    with pytest.raises(warpmem.SimError, match="arch|preset|nosuchgpu"):
        warpmem.sim(COPY_PTX, "copy", grid=1, block=1, args=[np.zeros(1), np.zeros(1), 1], arch="nosuchgpu")


def test_kernels_lists_the_parameters():
    ks = {k["name"]: k for k in warpmem.kernels(COPY_PTX)}
    assert set(ks) == {"copy", "copy_stride2", "copy_shifted", "daxpy"}
    assert [p["type"] for p in ks["daxpy"]["params"]] == ["u32", "f64", "u64", "u64"]


def test_strided_views_are_pointers_into_their_span():
    """A view goes as its whole span and the pointer to its first element, as on a GPU: a kernel that
    reads in[i] from x[1::2]'s pointer reads x[1], x[2], ... (the kernel knows no strides)."""
    x = np.arange(2 * N, dtype=np.float32)
    y = np.zeros(N, np.float32)
    warpmem.sim(COPY_PTX, "copy", grid=N // 256, block=256, args=[x[1::2], y, N])
    np.testing.assert_array_equal(y, x[1:N + 1])
    back = np.zeros(2 * N, np.float32)
    warpmem.sim(COPY_PTX, "copy", grid=N // 256, block=256, args=[x, back[::-1], 1])  # a negative stride
    assert back[-1] == x[0] and not back[:-1].any()                # the view's first element is back[-1]


def test_readonly_arrays_are_not_written_back():
    x = np.arange(N, dtype=np.float32)
    x.flags.writeable = False
    y = np.zeros(N, np.float32)
    warpmem.sim(COPY_PTX, "copy", grid=N // 256, block=256, args=[x, y, N])
    np.testing.assert_array_equal(y, x)
    ro = np.zeros(N, np.float32)
    ro.flags.writeable = False
    warpmem.sim(COPY_PTX, "copy", grid=N // 256, block=256, args=[x, ro, N])
    assert not ro.any()                                            # the kernel wrote it; the array kept its zeros
