// Control, the warps' run state (docs/blocks/sm.md, "Control"): per warp slot whether it has
// nothing left to run (wdone: exited, or every thread asleep at a barrier) and whether it has
// active threads (wactive), and what the scheduler sees of each warp this cycle, with this
// cycle's changes bypassed so that a warp may issue again in the cycle its state changes.
// simt_sm_control says when a warp's state changes: a launch (runnable, active), a read-back
// of the divergence unit's state (CHECK after an instruction, WAKECHECK after a wake) and a
// wake that needs no read-back (the woken warp runs again).
module simt_sm_warp_state #(
  parameter int  NumWarps = 8,
  localparam int WarpW    = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                launch_i,       // a launched warp takes launch_slot_i
  input  logic [WarpW-1:0]    launch_slot_i,
  input  logic                check_i,        // check_warp_i's state read back: ...
  input  logic [WarpW-1:0]    check_warp_i,
  input  logic [31:0]         qry_active_i,   // ... its active threads
  input  logic                qry_done_i,     // ... nothing left to run
  input  logic                wake_i,         // wake_slot_i runs again (after check_i's)
  input  logic                woken_i,        // ... shown to the scheduler in this cycle
  input  logic [WarpW-1:0]    wake_slot_i,
  input  logic [NumWarps-1:0] resident_i,
  output logic [NumWarps-1:0] warp_valid_o,   // the scheduler's view
  output logic [NumWarps-1:0] warp_active_o,
  output logic [NumWarps-1:0] wdone_o,
  output logic [NumWarps-1:0] wactive_o
);

  logic [NumWarps-1:0] wdone_d, wdone_q, wactive_d, wactive_q;
  always_comb begin
    wdone_d   = wdone_q;
    wactive_d = wactive_q;
    if (launch_i) begin
      wdone_d[launch_slot_i]   = 1'b0;
      wactive_d[launch_slot_i] = 1'b1;
    end
    if (check_i) begin
      wactive_d[check_warp_i] = qry_active_i != '0;
      wdone_d[check_warp_i]   = qry_done_i;
    end
    if (wake_i) begin
      wactive_d[wake_slot_i] = 1'b1;
      wdone_d[wake_slot_i]   = 1'b0;
    end
  end

  // The checked warp's new state straight from the divergence unit (it may issue again in
  // the same cycle), likewise a woken one.
  always_comb begin
    warp_valid_o  = resident_i & ~wdone_q;
    warp_active_o = wactive_q;
    if (check_i) begin
      warp_valid_o[check_warp_i]  = resident_i[check_warp_i] && !qry_done_i;
      warp_active_o[check_warp_i] = qry_active_i != '0;
    end
    if (woken_i) begin
      warp_valid_o[wake_slot_i]  = resident_i[wake_slot_i];
      warp_active_o[wake_slot_i] = 1'b1;
    end
  end

  assign wdone_o   = wdone_q;
  assign wactive_o = wactive_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wdone_q   <= '0;
      wactive_q <= '0;
    end else begin
      wdone_q   <= wdone_d;
      wactive_q <= wactive_d;
    end
  end

endmodule
