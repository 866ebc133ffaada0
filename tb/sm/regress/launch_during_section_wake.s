; Regression (found by the random programs, seed 1, program 7, 2026-11-23): a CTA launch
; waited for the barrier unit while the unit waited to hand out the next critical-section
; thread's wake: the core hung (StLaunchBu now serves wakes). Timing-dependent: run with
; --timeout-origin last as found.
.launch ctas=3 threads=96
.shared 384
.data
out: .zero 18432
acc: .zero 16
.text
mov r1, %tid
mov r2, %gtid
shl r16, r2, 6
shl r17, r1, 2
add r18, r1, 1
mov r19, %ntid
setp.ge p6, r18, r19
@p6 mov r18, 0
shl r18, r18, 2
add r3, r1, 39
mov r4, -934
add r5, r1, -11
add r6, r1, 18
mov r7, 303
mov r8, -973
add r9, r1, 1
mov r10, 740
mov r11, 774
mov r12, -639
and r20, r8, 1
setp.eq p2, r20, 2
ssy L1
@p2 bra L0
mov r9, %warpid
and r20, r2, 7
setp.eq p3, r20, 1
ssy L3
@p3 bra L2
setp.ge p2, r11, r6
sync L3
L2:
mov r12, %warpid
sync L3
L3:
sync L1
L0:
@p0 or r6, r1, 9
sync L1
L1:
setp.lt p0, r11, r3
bar.top.ocs 2
ld.global r21, [acc+8]
add r21, r21, r2
st.global [acc+8], r21
mov r11, r21
bar.bot.ocs 2
st.global [r16+out+56], r7
not r4, r2
por p0, p3, p1
cal f0
selp r12, r6, r12, p3
selp r4, r7, r3, p3
and r14, r1, 3
add r14, r14, 1
mov r13, 0
pbrk L5
L4:
setp.ge p5, r13, r14
@p5 brk L5
cal f0
maxu r6, r12, r4
yield
add r13, r13, 1
bra L4
L5:
st.shared [r17], r5
add r7, r11, r4
max r8, r5, r11
not r5, r9
st.global [r16+out+0], r3
st.global [r16+out+4], r4
st.global [r16+out+8], r5
st.global [r16+out+12], r6
st.global [r16+out+16], r7
st.global [r16+out+20], r8
st.global [r16+out+24], r9
st.global [r16+out+28], r10
st.global [r16+out+32], r11
st.global [r16+out+36], r12
exit
f0:
add r6, r10, 31
yield.p
min r3, r9, r12
@!p2 max r5, r2, r6
ret

