"""What the benchmarks read of other processes on this machine (Linux /proc)."""

import os


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def host_ticks() -> tuple[int, int]:
    """The machine's (stolen, all) CPU ticks so far, from /proc/stat: the share a hypervisor
    gave other guests shows as steal."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]
    return ticks[7], sum(ticks)
