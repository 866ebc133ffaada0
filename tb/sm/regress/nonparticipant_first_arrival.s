; A non-participating arrival reaches the barrier unit: warp 2 arrives at the impatient
; barrier first with no participant (p5 false), warp 0 participates after a delay, warp 1
; later still. Under --timeout-origin first-any TIMEOUT (300) runs from warp 2's arrival and
; has elapsed when warp 0 arrives (released at once); under first it runs from warp 0's
; arrival (warp 0 waits 300). Found missing in the core: arrivals without participants took
; the plain-instruction path and never reached the unit.
.launch ctas=1 threads=96
.data
waited: .zero 12
.text
        mov     r1, %tid
        setp.lt p5, r1, 64
        mov     r20, %warpid
        shl     r21, r20, 2
        setp.eq p6, r20, 2
@p6     bra     go
        add     r22, r20, 1
        mul     r22, r22, 200
delay:  setp.gt p4, r22, 0
@!p4    bra     go
        sub     r22, r22, 1
        bra     delay
go:     mov     r5, %clock
@p5     bar.sync.imp 1, 64, 0, 300
        mov     r6, %clock
        sub     r6, r6, r5
        st.global [r21+waited], r6
        exit
