; exit_divergent: threads exit inside divergent regions (inside an ssy/sync region, inside a
; loop with a break token outstanding, inside a called function); the survivors still
; reconverge and the CTA finishes. 40 threads: the second warp is partial.
.kernel exit_divergent
.launch ctas=2 threads=40
.data
out: .zero 320
; expect: out = 1 4 4 2 4 3 4 4 1 4 4 2 4 3 4 4 1 4 4 2 4 3 4 4 1 4 4 2 4 3 4 4 1 4 4 2 4 3 4 4 1 4 4 2 4 3 4 4 1 4 4 2 4 3 4 4 1 4 4 2 4 3 4 4 1 4 4 2 4 3 4 4 1 4 4 2 4 3 4 4

.text
        mov     r1, %tid
        mov     r2, %gtid
        shl     r9, r2, 2
        mov     r3, 1
        st.global [r9+out], r3          ; 1: started
        and     r4, r1, 7
        ssy     region
        setp.eq p0, r4, 0
@p0     bra     leave                   ; tid % 8 == 0 exit inside the region
        sync    region
leave:  exit
region: mov     r3, 2
        st.global [r9+out], r3          ; 2: passed the region
        mov     r5, 0
        pbrk    after_loop
loop:   add     r5, r5, 1
        setp.eq p1, r4, 3
@p1     exit                            ; tid % 8 == 3 exit inside the loop
        setp.ge p2, r5, r4
@p2     brk
        bra     loop
after_loop:
        mov     r3, 3
        st.global [r9+out], r3          ; 3: left the loop
        cal     maybe_exit
        mov     r3, 4
        st.global [r9+out], r3          ; 4: returned
        exit
maybe_exit:
        setp.eq p3, r4, 5
@p3     exit                            ; tid % 8 == 5 exit inside the call
        ret
