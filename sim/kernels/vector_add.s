; vector_add: c[i] = a[i] + b[i] for 64 threads in 2 CTAs
.kernel vector_add
.launch ctas=2 threads=32
.param a, b, c, 64

.data
a:  .word 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
    .word 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32
    .word 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48
    .word 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64
b:  .zero 256
c:  .zero 256

.text
        mov     r1, %gtid
        ld.param r10, [12]          ; n
        setp.ge p0, r1, r10
@p0     exit
        shl     r2, r1, 2           ; byte offset
        ld.param r3, [0]            ; &a
        add     r4, r3, r2
        ld.global r5, [r4]
        ld.global r6, [r2+b]        ; b[i]: the label is the byte address
        add     r7, r5, r6
        st.global [r2+c], r7
        exit
