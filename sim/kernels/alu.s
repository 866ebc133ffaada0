; alu: every arithmetic and logic instruction, register and immediate forms, on one thread.
; a = -7, b = 3. Expected values are independent arithmetic (wrap modulo 2^32).
.kernel alu
.launch ctas=1 threads=1
.data
out: .zero 96
; expect: out = 4294967292 4294967286 4294967275 1 4294967291 4294967290 4294967240 536870911 4294967295 4294967289 3 3 4294967289 6 4294967289 4294967240 305419896 0 4294967289 10 4294967294 2 7 4294967289

.text
        mov     r1, -7
        mov     r2, 3
        add     r3, r1, r2
        st.global [out+0], r3
        sub     r3, r1, r2
        st.global [out+4], r3
        mul     r3, r1, r2
        st.global [out+8], r3
        and     r3, r1, r2
        st.global [out+12], r3
        or      r3, r1, r2
        st.global [out+16], r3
        xor     r3, r1, r2
        st.global [out+20], r3
        shl     r3, r1, r2
        st.global [out+24], r3
        shr     r3, r1, r2
        st.global [out+28], r3
        sra     r3, r1, r2
        st.global [out+32], r3
        min     r3, r1, r2
        st.global [out+36], r3
        max     r3, r1, r2
        st.global [out+40], r3
        minu    r3, r1, r2
        st.global [out+44], r3
        maxu    r3, r1, r2
        st.global [out+48], r3
        not     r3, r1
        st.global [out+52], r3
        setp.lt p1, r1, r2
        selp    r3, r1, r2, p1          ; p1 true: a
        st.global [out+56], r3
        shl     r3, r1, 35              ; shift amounts use the low 5 bits
        st.global [out+60], r3
        mov     r3, 0x12345678
        st.global [out+64], r3
        mov     r4, 0x10000
        mul     r3, r4, r4              ; wraps to 0
        st.global [out+68], r3
        mov     r3, r1                  ; register move
        st.global [out+72], r3
        add     r3, r2, 7               ; immediate operand
        st.global [out+76], r3
        sub     r3, r2, 5
        st.global [out+80], r3
        and     r3, r2, 0x6
        st.global [out+84], r3
        xor     r3, r2, 4
        st.global [out+88], r3
        selp    r3, r2, r1, p0          ; p0 false: the second source (r1)
        st.global [out+92], r3
        exit
