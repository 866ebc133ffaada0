; One warp reaches an impatient barrier in two groups: threads 0-15 first, without
; participants (p1 false), threads 16-31 after a delay loop, as participants. Under
; --timeout-origin first-any the TIMEOUT (20) runs from the first group's arrival and has
; elapsed when the second arrives, so the unit fires it while that arrival is still in
; flight and wakes the very threads it brought. Found by random program 9 of seed 1509: the
; co-simulation applied the timeout before the model had taken the arrival ("no waiting
; arrivals to time out").
.launch ctas=1 threads=32
.data
out: .zero 128
.text
        mov     r1, %tid
        setp.ge p1, r1, 16
        selp    r2, r0, r0, p1          ; r2 = 0 for every thread ...
        @p1 mov r2, 60                  ; ... 60 loop trips for the participants
spin:   setp.gt p2, r2, 0
        @!p2 bra arrive
        sub     r2, r2, 1
        bra     spin
arrive: @p1 bar.sync.imp 1, 32, 0, 20
        shl     r3, r1, 2
        st.global [r3+out], r1
        exit
