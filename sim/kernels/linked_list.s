; linked_list: concurrent insertion into a sorted singly linked list with hand-over-hand
; locking (lock coupling): a thread holds the lock of `prev` while it locks `cur`, then lets
; `prev` go. 128 keys from 4 warps in 2 CTAs; node 0 is the head sentinel. Every lock
; acquisition spins with `yield` on its back-edge; the stack baseline never finishes.
.kernel linked_list
.launch ctas=2 threads=64
.data
lnext: .zero 516                        ; node n = gtid+1; 0 = head sentinel / end of list
lkey:  .zero 516
llock: .zero 516
; check deque: sorted_list
; expect stack: status timeout|deadlock
; max-cycles: 400000

.text
        mov     r1, %gtid
        mul     r2, r1, 37
        add     r2, r2, 11
        and     r2, r2, 127             ; key
        add     r3, r1, 1               ; my node
        shl     r4, r3, 2
        st.global [r4+lkey], r2
        mov     r7, 0
        mov     r8, 1
        mov     r10, 0                  ; prev = head (byte offset)
        ssy     got_head
spin0:  atom.global.cas r9, [r10+llock], r7, r8
        setp.ne p0, r9, 0
@p0     yield
@p0     bra     spin0
        sync    got_head
got_head:
        ld.global r11, [r10+lnext]      ; cur (node index)
walk:   setp.eq p1, r11, 0
@p1     bra     insert                  ; end of list
        shl     r12, r11, 2             ; cur byte offset
        ssy     got_cur
spin1:  atom.global.cas r9, [r12+llock], r7, r8
        setp.ne p0, r9, 0
@p0     yield
@p0     bra     spin1
        sync    got_cur
got_cur:
        ld.global r13, [r12+lkey]
        setp.geu p2, r13, r2            ; cur.key >= key: insert before cur
@p2     atom.global.exch r9, [r12+llock], r7
@p2     bra     insert
        atom.global.exch r9, [r10+llock], r7    ; hand over: release prev
        mov     r10, r12                ; prev = cur (cur stays locked)
        ld.global r11, [r12+lnext]
        bra     walk
insert: st.global [r4+lnext], r11       ; node.next = cur
        st.global [r10+lnext], r3       ; prev.next = node
        membar
        atom.global.exch r9, [r10+llock], r7    ; release prev
        exit
