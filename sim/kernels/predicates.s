; predicates: every setp comparison (signed and unsigned) and pand/por/pxor/pnot, guards
; with @p and @!p. Thread t compares x = t - 16 with 0 and with 5; out[t] collects one bit
; per result.
.kernel predicates
.launch ctas=1 threads=32
.data
out: .zero 128
; expect: out = 18190 21262 21262 21262 21262 21262 21262 21262 21262 21262 21262 21262 21262 21262 21262 21262 10441 10434 10434 10434 10434 10914 11058 11058 11058 11058 11058 11058 11058 11058 11058 11058

.text
        mov     r1, %tid
        sub     r1, r1, 16              ; x = tid - 16 (negative for tid < 16)
        mov     r9, 0                   ; result bits
        mov     r8, 5
        setp.eq p0, r1, 0
@p0     or      r9, r9, 0x1
        setp.ne p0, r1, 0
@p0     or      r9, r9, 0x2
        setp.lt p0, r1, 0
@p0     or      r9, r9, 0x4
        setp.le p0, r1, 0
@p0     or      r9, r9, 0x8
        setp.gt p0, r1, r8              ; register operand
@p0     or      r9, r9, 0x10
        setp.ge p0, r1, r8
@p0     or      r9, r9, 0x20
        setp.ltu p0, r1, 5              ; negative x is a large unsigned number
@p0     or      r9, r9, 0x40
        setp.leu p0, r1, 5
@p0     or      r9, r9, 0x80
        setp.gtu p0, r1, 5
@p0     or      r9, r9, 0x100
        setp.geu p0, r1, 5
@p0     or      r9, r9, 0x200
        setp.lt p1, r1, 0               ; p1: x < 0
        setp.eq p2, r1, -16             ; p2: x == -16 (tid 0)
        pand    p3, p1, p2
@p3     or      r9, r9, 0x400
        por     p4, p1, p2
@!p4    or      r9, r9, 0x800           ; negated guard: x >= 0
        pxor    p5, p1, p2
@p5     or      r9, r9, 0x1000
        pnot    p6, p1
@p6     or      r9, r9, 0x2000
        pand    p3, p1, pt              ; pt: the constant-true predicate
@p3     or      r9, r9, 0x4000
        mov     r2, %tid
        shl     r2, r2, 2
        st.global [r2+out], r9
        exit
