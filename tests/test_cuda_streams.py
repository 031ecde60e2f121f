"""torch.cuda's streams and events as a learner uses them: timing GPU work with two events and
elapsed_time(), `with torch.cuda.stream(s):` blocks, wait_stream/wait_event/record_event, current and
default streams, Tensor.record_stream, and torch's errors for each misuse.

The tests that need a device run on whatever CUDA device is present: the simulated GPU in CI
(MINITORCH_SIMULATE_GPU=1; events keep the host clock there), the emulated-CUDA build
(test_cuda_emulated_build.py runs this file against the real cuda_runtime.c) or a real GPU; they skip
without one. The real-GPU-only checks skip unless the device is a real GPU, as test_cuda_kernels.py's;
the two-device checks are marked multi_gpu. Without a device, the errors are compared with
minitorch.cuda.init()'s (torch's no-GPU errors) and, where torch's CPU build can run the call, with torch.
"""

import threading

import pytest

import minitorch as torch
from parity import import_torch, normalize

real_torch = import_torch()

needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device (MINITORCH_SIMULATE_GPU=1)")
needs_real_gpu = pytest.mark.skipif(not torch.cuda.is_available() or torch._C._cuda_isSimulated(),
                                    reason="needs a real CUDA GPU")
needs_two = pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices (MINITORCH_SIMULATE_GPU=2)")


def outcome(call):
    try:
        return "ok", call()
    except Exception as e:
        return type(e).__name__, normalize(str(e))


# ---- without a device ------------------------------------------------------------------------------

@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the answers of a machine without a CUDA device")
@pytest.mark.skipif(not torch._C.has_cuda, reason="a CUDA build's answers (a CPU-only build's: the test below)")
def test_without_a_device_the_first_call_that_needs_cuda_raises_the_init_error():
    init_error = outcome(torch.cuda.init)
    assert init_error[0] != "ok"
    event = torch.cuda.Event(enable_timing=True)
    # nothing needs the device until the event is recorded (torch makes the CUDA event then)
    assert repr(event) == "<minitorch.cuda.Event uninitialized>"
    assert event.cuda_event == 0 and event.device is None
    assert event.query() is True and event.synchronize() is None
    for call in (event.record, torch.cuda.current_stream, torch.cuda.default_stream):
        assert outcome(call) == init_error
    # a new stream asks the runtime for the current device without initialising CUDA: without a driver, the
    # runtime's error (torch's AcceleratorError), else the initialisation's
    no_driver = torch._C._cuda_driverVersion() == 0
    calls = (torch.cuda.Stream, torch.cuda.Stream.priority_range)
    for call in calls + ((torch.cuda.is_current_stream_capturing,) if no_driver else ()):
        got = outcome(call)
        if no_driver:
            assert got[0] == "AcceleratorError"
            assert got[1].startswith("CUDA error: CUDA driver version is insufficient for CUDA runtime version\n")
        else:
            assert got == init_error
    with torch.cuda.stream(None):
        pass
    assert torch.cuda.set_stream(None) is None


@pytest.mark.skipif(torch._C.has_cuda, reason="checks a CPU-only build (MINITORCH_CUDA=0; CI builds one)")
@pytest.mark.skipif(torch._C._cuda_isSimulated(), reason="the simulated GPU provides CUDA devices even in a CPU build")
def test_a_cpu_only_build_answers_as_torchs_cpu_build():
    # torch's CPU build has placeholder classes: Event cannot be made, Stream says it needs CUDA support, and
    # the stream functions fail as torch.cuda.init() does
    assert outcome(lambda: torch.cuda.Event(enable_timing=True)) == (
        "RuntimeError", "Tried to instantiate dummy base class Event")
    assert outcome(torch.cuda.Stream) == ("RuntimeError", "torch.cuda.Stream requires CUDA support")
    assert not hasattr(torch.cuda.Stream, "priority_range")
    init_error = outcome(torch.cuda.init)
    assert init_error == ("AssertionError", "Torch not compiled with CUDA enabled")
    for call in (torch.cuda.current_stream, torch.cuda.default_stream):
        assert outcome(call) == init_error
    with torch.cuda.stream(None):
        pass
    assert torch.cuda.set_stream(None) is None


@pytest.mark.skipif(real_torch is None, reason="torch is not installed")
def test_arguments_and_no_op_forms_match_torch():
    for module in (torch, real_torch):
        ctx = module.cuda.stream(None)
        assert type(ctx).__name__ == "StreamContext" and ctx.__enter__() is None and ctx.__exit__(None, None, None) is None
        assert module.cuda.set_stream(None) is None
    for args, kwargs in [((1, 2, 3, 4, 5), {}), ((), {"foo": 1})]:
        assert outcome(lambda: torch.cuda.Event(*args, **kwargs)) == outcome(lambda: real_torch.cuda.Event(*args, **kwargs))
    # record_stream's argument must be a stream: torch's argument parser's answer
    for bad in (None, 3):
        assert outcome(lambda: torch.randn(3).record_stream(bad)) == outcome(lambda: real_torch.randn(3).record_stream(bad))


# ---- streams ---------------------------------------------------------------------------------------

@needs_gpu
def test_default_and_current_stream():
    default = torch.cuda.default_stream()
    assert repr(default) == "<minitorch.cuda.Stream device=cuda:0 cuda_stream=0x0>"
    assert (default.cuda_stream, default.stream_id, default.device_index, default.priority) == (0, 0, 0, 0)
    assert default.device == torch.device("cuda", 0)
    assert torch.cuda.current_stream() == default and hash(torch.cuda.current_stream()) == hash(default)
    assert torch.cuda.current_stream(0) == torch.cuda.current_stream("cuda:0") == default
    assert default != 0 and default != "stream"
    assert default.query() is True and default.synchronize() is None


@needs_gpu
def test_new_streams_come_from_a_pool_of_32_per_priority():
    first = torch.cuda.Stream()
    others = [torch.cuda.Stream() for _ in range(31)]
    handles = {s.cuda_stream for s in [first] + others}
    assert len(handles) == 32 and 0 not in handles
    assert torch.cuda.Stream() == first  # round robin, as torch's pool
    assert first != torch.cuda.default_stream() and first.priority == 0
    assert repr(first) == "<minitorch.cuda.Stream device=cuda:0 cuda_stream={:#x}>".format(first.cuda_stream)
    assert first.stream_id & 1 and first.device == torch.device("cuda:0")
    same = torch.cuda.Stream(stream_id=first.stream_id, device_index=first.device_index, device_type=first.device_type)
    assert same == first and hash(same) == hash(first) and same.cuda_stream == first.cuda_stream


@needs_gpu
def test_priorities_are_clamped_to_the_range():
    least, greatest = torch.cuda.Stream.priority_range()
    assert least == 0 and -3 <= greatest <= -1
    assert torch.cuda.Stream(priority=5).priority == 0
    assert torch.cuda.Stream(priority=-1).priority == -1
    high = torch.cuda.Stream(priority=-100)
    assert high.priority == greatest and high != torch.cuda.Stream(priority=0)


@needs_gpu
def test_stream_context_sets_and_restores_the_current_stream():
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    default = torch.cuda.default_stream()
    with torch.cuda.stream(s1):
        assert torch.cuda.current_stream() == s1
        with torch.cuda.stream(s2):
            assert torch.cuda.current_stream() == s2
        assert torch.cuda.current_stream() == s1
        with torch.cuda.stream(None):
            assert torch.cuda.current_stream() == s1
    assert torch.cuda.current_stream() == default
    with pytest.raises(ZeroDivisionError):
        with torch.cuda.StreamContext(s1):
            1 / 0
    assert torch.cuda.current_stream() == default
    torch.cuda.set_stream(s2)
    try:
        assert torch.cuda.current_stream() == s2
    finally:
        torch.cuda.set_stream(default)
    assert torch.cuda.current_stream() == default


@needs_gpu
def test_the_current_stream_is_per_thread():
    s = torch.cuda.Stream()
    seen = []
    with torch.cuda.stream(s):
        thread = threading.Thread(target=lambda: seen.append(torch.cuda.current_stream()))
        thread.start()
        thread.join()
        assert torch.cuda.current_stream() == s
    assert seen == [torch.cuda.default_stream()]


@needs_gpu
def test_work_queued_in_a_side_stream_is_ordered_with_the_default_stream():
    torch.manual_seed(0)
    host = torch.randn(257, 129)
    expected = host * 3 + 1  # element-wise: the same numbers on every device
    side = torch.cuda.Stream()
    x = host.cuda()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        y = x * 3 + 1
        done = side.record_event()
        y.record_stream(side)
    assert isinstance(done, torch.cuda.Event)
    torch.cuda.current_stream().wait_event(done)
    torch.cuda.current_stream().wait_stream(side)
    side.synchronize()
    assert side.query() is True and done.query() is True
    assert torch.equal(y.cpu(), expected)


@needs_gpu
def test_non_blocking_copies_in_a_stream_then_an_event():
    torch.manual_seed(1)
    host = torch.randn(1000).pin_memory()
    copy_stream = torch.cuda.Stream()
    with torch.cuda.stream(copy_stream):
        dev = host.to("cuda", non_blocking=True)
        copied = torch.cuda.Event()
        copied.record()
    copied.wait()
    copied.synchronize()
    back = torch.empty(1000).pin_memory()
    back.copy_(dev * 2, non_blocking=True)
    torch.cuda.current_stream().synchronize()
    assert torch.equal(back, host * 2)


# ---- events ----------------------------------------------------------------------------------------

@needs_gpu
def test_timing_with_two_events():
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    x = torch.randn(64, 64, device="cuda")
    for _ in range(3):
        x = torch.tanh(x @ x)
    end.record()
    end.synchronize()
    assert start.query() and end.query()
    ms = start.elapsed_time(end)
    assert isinstance(ms, float) and ms >= 0.0
    assert end.elapsed_time(start) == pytest.approx(-ms, abs=1e-3)
    assert start.device == torch.device("cuda", 0) and start.cuda_event != 0
    assert repr(start) == "<minitorch.cuda.Event {:#x}>".format(start.cuda_event)
    # re-recording moves the event
    end.record(torch.cuda.Stream())
    end.synchronize()
    assert start.elapsed_time(end) >= ms


@needs_gpu
def test_elapsed_time_errors_in_torchs_order():
    timed = torch.cuda.Event(enable_timing=True)
    timed.record()
    plain = torch.cuda.Event()
    plain.record()
    timing = ("ValueError", "Both events must be created with argument 'enable_timing=True'.")
    recorded = ("ValueError", "Both events must be recorded before calculating elapsed time.")
    assert outcome(lambda: plain.elapsed_time(timed)) == timing
    assert outcome(lambda: timed.elapsed_time(plain)) == timing
    assert outcome(lambda: torch.cuda.Event().elapsed_time(torch.cuda.Event())) == timing
    assert outcome(lambda: timed.elapsed_time(torch.cuda.Event(enable_timing=True))) == recorded
    assert outcome(lambda: torch.cuda.Event(enable_timing=True).elapsed_time(timed)) == recorded


@needs_gpu
def test_event_misuse():
    event = torch.cuda.Event()
    assert event.query() is True and event.wait() is None and event.synchronize() is None  # never recorded
    assert outcome(event.ipc_handle)[0] == "NotImplementedError"
    assert outcome(lambda: torch.cuda.Event.from_ipc_handle(0, b""))[0] == "NotImplementedError"
    # CUDA refuses an interprocess event that keeps time, when the event is made (at its first record)
    bad = torch.cuda.Event(enable_timing=True, interprocess=True)
    assert outcome(bad.record) == ("AcceleratorError", "CUDA error: invalid argument")
    assert outcome(lambda: torch.cuda.Event().record(3))[0] == "TypeError"
    blocking = torch.cuda.Event(blocking=True)
    blocking.record()
    blocking.synchronize()
    assert blocking.query() is True


@needs_gpu
def test_record_stream():
    s = torch.cuda.Stream()
    t = torch.ones(3, device="cuda")
    assert t.record_stream(s) is None
    assert outcome(lambda: torch.ones(3).record_stream(s)) == (
        "NotImplementedError", "Could not run 'aten::record_stream' with arguments from the 'CPU' backend.")


@needs_real_gpu
def test_on_a_real_gpu_the_handles_are_cuda_streams_and_events():
    s = torch.cuda.Stream()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    x = torch.randn(256, 256, device="cuda")
    start.record(s)
    with torch.cuda.stream(s):
        for _ in range(4):
            x = x @ x / 256
    end.record(s)
    s.synchronize()
    assert end.query() and start.elapsed_time(end) > 0.0
    assert s.cuda_stream != 0 and s._as_parameter_.value == s.cuda_stream


# ---- two devices -----------------------------------------------------------------------------------

@pytest.mark.multi_gpu
@needs_two
def test_streams_and_events_of_two_devices():
    s1 = torch.cuda.Stream(device=1)
    assert s1.device == torch.device("cuda", 1) and torch.cuda.current_device() == 0
    assert torch.cuda.current_stream(1) == torch.cuda.default_stream(1) != torch.cuda.default_stream(0)
    with torch.cuda.stream(s1):
        # entering a stream of another device makes that device current, as torch does
        assert torch.cuda.current_device() == 1 and torch.cuda.current_stream() == s1
        assert torch.cuda.current_stream(0) == torch.cuda.default_stream(0)
    assert torch.cuda.current_device() == 0 and torch.cuda.current_stream(1) == torch.cuda.default_stream(1)
    event = torch.cuda.Event()
    event.record()
    assert outcome(lambda: event.record(s1)) == (
        "RuntimeError", "Event device 0 does not match recording stream's device 1.")
    event.wait(s1)  # any device's stream may wait
    s1.synchronize()
