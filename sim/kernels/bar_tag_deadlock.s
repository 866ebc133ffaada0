; bar_tag_deadlock: a kernel that must end in `deadlock`, with a report naming the waiters.
; Warp 1 takes barrier id 5 at tag B (COUNT 32, done at once) and then sleeps at tag C, which
; waits for all 64 threads; warp 0 arrives late at tag A of the same id and is held back
; because the id is busy with another tag. Nothing can issue: the report lists warp 1 asleep
; at barrier 5 and warp 0 waiting for the id.
.kernel bar_tag_deadlock
.launch ctas=1 threads=64
.data
never: .word 0
; expect: status deadlock
; expect: never = 0

.text
        mov     r3, %warpid
        setp.eq p0, r3, 1
@p0     bra     path_b
        mov     r20, 50
delay:  sub     r20, r20, 1
        setp.gt p6, r20, 0
@p6     bra     delay
        bar.sync 5                      ; tag A: held while C owns the id
        bra     again
path_b: bar.sync 5, 32                  ; tag B
again:  bar.sync 5                      ; tag C: needs warp 0, which is stuck before A
        mov     r1, 1
        st.global [never], r1
        exit
