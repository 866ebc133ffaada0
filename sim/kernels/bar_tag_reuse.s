; bar_tag_reuse: one barrier id at two places (the barrier's PC is its tag). Warps 0 and 1
; meet at `bar.sync 5, 64` (tag A); warp 2 reaches `bar.sync 5, 32` (tag B) while A is still
; waiting for the late warp 1, so warp 2 must wait until A's instance is done: it then reads
; all 64 arrivals at A. (Had warp 2 taken the id first and gone on to the third place, warps
; 0 and 1 could never arrive at A: the model reports that as a deadlock.) Then every warp
; reuses id 5 at a third place with all 96 threads; warps 0 and 1 first wait for warp 2 to
; have passed B (flag bdone), or they could claim the id for the third place while warp 2
; still waits to arrive at B: a deadlock that only the scheduling order decides.
.kernel bar_tag_reuse
.launch ctas=1 threads=96
.data
xcount: .word 0
seen:   .zero 384
final:  .word 0
bdone:  .word 0
; expect: seen = 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64 64
; expect: final = 96
; policies: lrr

.text
        mov     r1, %tid
        shl     r9, r1, 2
        mov     r2, 1
        mov     r3, %warpid
        setp.eq p0, r3, 2
        setp.eq p1, r3, 1
        mov     r20, 0
@p1     mov     r20, 150                ; warp 1 is late to A
@p0     mov     r20, 20                 ; warp 2 reaches B after warp 0 took the id for A
delay:  setp.gt p6, r20, 0
@!p6    bra     go
        sub     r20, r20, 1
        bra     delay
go:
@p0     bra     path_b
at_a:   atom.global.add r4, [xcount], r2
        bar.sync 5, 64                  ; tag A
wait_b: ld.global r5, [bdone]           ; until warp 2 has passed B
        setp.eq p5, r5, 0
@p5     bra     wait_b
        bra     again
path_b: bar.sync 5, 32                  ; tag B: waits for A to finish
        ld.global r4, [xcount]
        st.global [r9+seen], r4
        st.global [bdone], r2
again:  bar.sync 5                      ; tag C: everyone
        atom.global.add r4, [final], r2
        exit
