#!/usr/bin/env python3
"""A simtcore UART bridge in front of a plain 2,048-word RAM, behind a pseudo-terminal: what
the ULX3S link-test bitstream (WithCore 0, docs/blocks/fpga_top.md) is to a host, a board
that answers the protocol but is no FPGA top (its geometry words read 0). Prints the pty's
slave path, then answers frames (docs/blocks/uart_bridge.md) until it is killed, or for 60 s
at the most."""
import os
import select
import time
import tty

SYNC_REQ, SYNC_RSP = 0xA5, 0x5A
CMD_READ, CMD_WRITE, CMD_BURST_READ, CMD_BURST_WRITE, CMD_STATUS = 1, 2, 3, 4, 5
STATUS_WORD0 = 0x53 << 24 | 1 << 16 | 64 << 8  # "S", protocol version 1, MaxBurst 64


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE, as the bridge's (sim/model/fpga/uart_bridge.cpp)."""
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def answer(seq, words):
    body = bytes([SYNC_RSP, 0, seq, len(words)]) + b"".join(w.to_bytes(4, "little") for w in words)
    c = crc16(body)
    return body + bytes([c >> 8, c & 0xFF])


def serve(master, ram):
    buf = bytearray()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if not ready:
            continue
        buf += os.read(master, 4096)
        while buf:
            if buf[0] != SYNC_REQ:
                del buf[0]
                continue
            if len(buf) < 6:
                break
            cmd, seq, addr, cnt = buf[1], buf[2], buf[3] | buf[4] << 8, buf[5]
            size = 8 + (4 * cnt if cmd in (CMD_WRITE, CMD_BURST_WRITE) else 0)
            if len(buf) < size:
                break
            frame, buf = bytes(buf[:size]), buf[size:]
            if crc16(frame) != 0:
                continue  # the host retries; a clean pty never gets here
            if cmd == CMD_STATUS:
                words = [STATUS_WORD0, 0, 0]
            elif cmd in (CMD_READ, CMD_BURST_READ):
                words = [ram[(addr + i) % len(ram)] for i in range(cnt)]
            else:
                for i in range(cnt):
                    ram[(addr + i) % len(ram)] = int.from_bytes(frame[6 + 4 * i:10 + 4 * i], "little")
                words = []
            os.write(master, answer(seq, words))


def main():
    master, slave = os.openpty()
    tty.setraw(slave)  # held open: without a slave the master reads EIO between hosts
    print(os.ttyname(slave), flush=True)
    serve(master, [0] * 2048)


if __name__ == "__main__":
    main()
