// Control, the answer to the sequencer (simt_sm_control's status_o: busy_d and issue_try),
// computed with the divergence unit's readiness last: what the control unit does next if
// this cycle's request is taken (_r) and if not (_nr), each from the unit's state and the
// sequencer's commands alone, then one select by taken_i. That is a plain instruction's or
// a wake's readiness, from the divergence unit's state and wake terms: a control
// instruction's request, taken or not, leaves the unit busy and lets the next warp issue
// (given back from DE if the request was not taken), so the unit's fast path, its deepest
// answer, does not reach the sequencer. The control unit's next-state block decides the
// same from the unit's answer in the middle; simt_sm_control asserts the two equal every
// cycle. (In a state without a request the two agree.)
//
// The answer leaves out this cycle's wake commands: the sequencer reads busy_d and
// ret_launch only in EXEC, CTRL and WAKE, never in the IDLE or LAUNCH cycle that commands a
// wake, and so the scheduler's choice behind those commands stays off the path from the
// divergence unit's answer to the next issue.
module simt_sm_control_answer (
  input  simt_sm_pkg::ctrl_state_e state_i,
  input  simt_sm_pkg::ctrl_ret_e   ret_i,      // where a wake in a barrier request returns
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::ctl_cmd_t    cmd_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic                     go_i,         // EXEC hands its instruction to the unit
  input  logic                     direct_i,     // ... its request goes from EXEC
  input  logic                     simple_i,     // ... a plain one, retiring if taken
  input  logic                     exit_i,       // ... an exit with executing threads
  input  logic                     wake_req_i,   // a wake token goes to the divergence unit
  input  logic                     bu_exit_i,    // the instruction in DU is an exit
  input  logic                     wake_fast_i,  // the wake needs no read-back
  input  logic                     taken_i,      // this cycle's request is taken (a
                                                 // plain one's or a wake's: see below)
  output logic                     busy_o,       // busy_d
  output logic                     try_o         // issue_try
);

  logic busy_r, busy_nr, try_r, try_nr;
  logic ret_idle;  // a wake ends idle (not inside a barrier request)
  assign ret_idle = ret_i != simt_sm_pkg::RetBarReq && ret_i != simt_sm_pkg::RetExitBu;
  always_comb begin
    busy_r  = 1'b1;
    busy_nr = 1'b1;
    try_r   = 1'b0;
    try_nr  = 1'b0;
    unique case (state_i)
      simt_sm_pkg::CtIdle: begin
        // A plain instruction taken retires (a wake due then follows, if DE is empty); any
        // other instruction, taken or not, keeps the unit busy.
        // (A load/store or FP instruction's end, lsu_done, is left out: the sequencer reads
        // busy_d in EXEC and CTRL only, never in the MEM or FPU cycle that ends it, and so
        // the load/store unit's done after its requests stays off the path into the next
        // issue; its done from the unit's registered state, lsu_fast, is in, as a plain
        // instruction's retirement.)
        busy_nr = go_i || cmd_i.lsu_fast;
        busy_r  = (go_i && !(simple_i && !(cmd_i.wake_next && !cmd_i.de_v))) ||
                  (cmd_i.lsu_fast && cmd_i.wake_next && !cmd_i.de_v);
        // A control instruction lets the next warp issue whether it is taken or not.
        try_nr  = direct_i && !simple_i && !exit_i && cmd_i.issue_ok;
        try_r   = (((direct_i && simple_i) || cmd_i.lsu_fast) && cmd_i.issue_ok &&
                   (!cmd_i.de_v || cmd_i.de_simple)) || try_nr;
      end
      simt_sm_pkg::CtDu: begin
        try_nr = !bu_exit_i && cmd_i.issue_ok;
        try_r  = try_nr;
      end
      simt_sm_pkg::CtCheck: begin
        busy_r  = 1'b0;
        busy_nr = wake_req_i;
        try_nr  = !wake_req_i && cmd_i.issue_ok && (!cmd_i.de_v || cmd_i.de_simple);
        try_r   = wake_req_i ? cmd_i.issue_base : try_nr;
      end
      simt_sm_pkg::CtWake: begin
        busy_r = !(wake_fast_i && ret_idle);
        try_r  = wake_fast_i && ret_i == simt_sm_pkg::RetNone && cmd_i.issue_ok;
      end
      simt_sm_pkg::CtWakeCheck: begin
        busy_r  = !ret_idle;
        busy_nr = !ret_idle;
        try_r   = ret_i == simt_sm_pkg::RetNone && cmd_i.issue_ok;
        try_nr  = try_r;
      end
      default: ;
    endcase
  end
  assign busy_o = taken_i ? busy_r : busy_nr;
  assign try_o  = taken_i ? try_r : try_nr;

endmodule
