; fault_misaligned: thread 5 loads from a misaligned address. The run ends with status error
; (exit 1) and a message naming the fault, warp, PC, thread and source line.
.kernel fault_misaligned
.launch ctas=1 threads=32
.data
buf: .zero 64
; expect: status error
; expect: message fault: misaligned global access at 22
; expect: message thread 5
; expect: message fault_misaligned.s:17

.text
        mov     r1, %tid
        shl     r2, r1, 2
        setp.eq p0, r1, 5
@p0     add     r2, r2, 2               ; thread 5: byte offset 22
        ld.global r3, [r2+buf]
        exit
