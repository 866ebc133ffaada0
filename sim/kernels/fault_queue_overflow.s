; fault_queue_overflow: unbounded recursion pushes a CALL token per level; the warp's token
; queue (32 entries) overflows, the runtime re-centres it until it is full, and then the
; overflow is unrecoverable: a fault (status error), not a hang and not a lost token.
.kernel fault_queue_overflow
.launch ctas=1 threads=32
; expect: status error
; expect: message unrecoverable token-queue overflow

.text
        mov     r1, %tid
        setp.lt p0, r1, 16
@p0     bra     deep                    ; divergent: keeps the other half waiting in a DIV token
        exit
deep:   cal     deep                    ; never returns
        exit
