; spin_lock: ElTantawy & Aamodt (MICRO 2016) fig. 1, one global lock taken by every thread:
;     while (!CAS(lock, 0, 1)); counter++; exch(lock, 0)
; The loop's reconvergence point (the pbrk label) is where a stack-based SIMT machine makes
; the winner wait for the spinning losers, which never win: the stack baseline times out.
; With the token queue, the back-edge `yield` lets the winner's break token run first.
; expect deque: counter = 128
; expect deque: lock = 0
; expect stack: status timeout|deadlock
; max-cycles: 200000
.kernel spin_lock
.launch ctas=2 threads=64
.data
lock:    .word 0
counter: .word 0

.text
        mov     r2, 0                   ; CAS compare value (free)
        mov     r3, 1                   ; CAS new value (taken)
        pbrk    critical                ; loop exit = reconvergence point
spin:   atom.global.cas r1, [lock], r2, r3
        setp.eq p0, r1, 0               ; p0: this thread took the lock
@p0     brk     critical                ; winners leave the loop (or go on if no token left)
        yield                           ; blocking back-edge: let other paths run
        bra     spin
critical:
        ld.global r4, [counter]
        add     r4, r4, 1
        st.global [counter], r4
        atom.global.exch r5, [lock], r2 ; release
        exit
