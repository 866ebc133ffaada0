// The pass sequencer: a warp of 32 threads on NumLanes physical lanes (docs/blocks/sm.md,
// "Passes"). An instruction that computes on the lanes visits the groups of NumLanes
// threads (group g: threads g*NumLanes .. g*NumLanes + NumLanes-1) that have an executing
// thread, in ascending order, one group per cycle; groups without one are skipped, so a
// warp with few threads active takes fewer passes. EXEC lasts as long as more_o says
// another pass follows. At NumLanes = 32 there is one group and nothing is sequenced.
//
// This is the seam seed 001 reuses (a wave wider than the lanes in several passes): the
// units ask only "which threads are on the lanes now" (threads_o) and "is this the last
// pass" (!more_o).
//
// FP lanes (FpLanes F, a divisor of NumLanes L): an FP instruction (fp_i) visits groups of
// F threads instead, so the FP unit can have fewer lanes than the ALU (issue #26: an FP lane
// is four ALU lanes' area). Its passes still name the group of L threads the register file
// reads (pass_o, pass_next_o); fpass_lanes_o names the group of F (the FP unit's pass, whose
// low bits pick its F lanes out of the L-lane operands).
module simt_sm_pass #(
  parameter int  NumLanes  = 32,
  parameter int  FpLanes   = NumLanes,
  localparam int NumPasses = 32 / NumLanes,
  localparam int PassW     = (NumPasses > 1) ? $clog2(NumPasses) : 1,
  localparam int FpPasses  = 32 / FpLanes,
  localparam int FpPassW   = (FpPasses > 1) ? $clog2(FpPasses) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,    // an instruction is in EXEC (each cycle it stays)
  input  logic             multi_i,    // it computes on the lanes
  input  logic             fp_i,       // ... on the FP lanes (groups of FpLanes threads)
  input  logic             stop_i,     // it faults: no pass follows (the core stops)
  input  logic [31:0]      mask_i,     // its executing threads
  input  logic [31:0]      mask_next_i,  // ... those of the instruction in EXEC next cycle (or
                                         // of one given back from DE: EXEC is empty then)
  output logic [PassW-1:0] pass_o,     // the group on the lanes this cycle
  // pass_o again, registered, one copy per lane (lane l: [l*PassW +: PassW]); equal to
  // pass_o whenever an instruction is in EXEC (asserted). The lanes' operand selects take
  // these: pass_o is a 32-bit search and one net to over a thousand sinks (issue #26).
  output logic [NumLanes*PassW-1:0] pass_lanes_o,
  // The next pass's group while another follows (more_o): the group the register file reads
  // for it (decode reads the next pass's operands while this one executes). From the
  // threads left alone, not the next instruction's: DE's hand-on, and through it the
  // scoreboard, stays off the register file's read address (issue #26).
  output logic [PassW-1:0] pass_next_o,
  // The FP group (of FpLanes threads) on the FP lanes, registered, a copy per FP lane (as
  // pass_lanes_o; equal to fpass_lanes_o's group whenever an FP instruction is in EXEC).
  output logic [FpLanes*FpPassW-1:0] fpass_lanes_o,
  output logic [31:0]      threads_o,  // its threads
  output logic             more_o      // another pass follows: EXEC stays
);

  // The threads still to run, this pass's included (the first pass: the executing ones);
  // the pass takes the group of the lowest (simt_sm_pkg::group_of, the rule the load/store
  // unit shares; group 0 when there is none: the instruction still spends its one cycle in
  // EXEC), and the rest wait for the next passes.
  logic [31:0] todo, rest;
  logic [31:0] left_d, left_q;  // non-zero only while passes of the instruction remain
  logic        busy;            // ... so: passes remain
  logic [4:0]  first;           // the group's first thread
  // The groups with a thread: of left_q (registered with it: more_o, and through it the
  // control unit's command and the divergence unit's request, waits for no 32-bit
  // reduction of left_q), of the executing threads, and of todo; in groups of F threads
  // for an FP instruction (the same at F = L).
  localparam int Groups = (FpLanes < NumLanes) ? FpPasses : NumPasses;
  localparam int GrpW   = 32 / Groups;  // the finest group's threads
  logic [Groups-1:0] lgrp_d, lgrp_q, mgrp, tgrp, tgrp_l;
  for (genvar g = 0; g < Groups; g++) begin : g_grp
    assign mgrp[g]   = mask_i[g*GrpW +: GrpW] != '0;
    assign lgrp_d[g] = left_d[g*GrpW +: GrpW] != '0;
  end
  // A group of L threads has a thread when one of its groups of F has (all 1 at F = L).
  for (genvar g = 0; g < Groups; g++) begin : g_grp_l
    assign tgrp_l[g] = tgrp[(g / (NumLanes / GrpW)) * (NumLanes / GrpW) +: NumLanes / GrpW]
                       != '0 && g % (NumLanes / GrpW) == 0;
  end

  logic grp_fp;  // this pass takes a group of F threads
  assign grp_fp    = FpLanes < NumLanes && fp_i;
  assign busy      = lgrp_q != '0;
  assign todo      = busy ? left_q : mask_i;
  assign tgrp      = busy ? lgrp_q : mgrp;
  assign first     = grp_fp ? simt_sm_pkg::group_first(todo, FpLanes) :
                              simt_sm_pkg::group_first(todo, NumLanes);
  assign threads_o = grp_fp ? simt_sm_pkg::group_of(todo, FpLanes) :
                              simt_sm_pkg::group_of(todo, NumLanes);
  assign rest      = todo & ~threads_o;
  assign pass_o    = PassW'(32'(first) >> $clog2(NumLanes));
  // Another pass follows when two groups or more have threads to run (rest != 0).
  logic [Groups-1:0] grp;
  assign grp       = grp_fp ? tgrp : tgrp_l;
  assign more_o    = valid_i && multi_i && (grp & (grp - 1'b1)) != '0;

  // (A fault ends the passes here rather than in more_o: EXEC's fault check stays off the
  // path from more_o through the control unit into the divergence unit; the sequencer
  // takes the fault before another pass anyway.)
  assign left_d = (more_o && !stop_i) ? rest : '0;

  // The next cycle's pass: the group of the lowest thread of the next cycle's todo (left_d
  // while passes remain, else the next instruction's threads).
  logic [31:0]      todo_next;
  logic [4:0]       first_next;
  logic [PassW-1:0] pass_next;
  assign todo_next  = (more_o && !stop_i) ? rest : mask_next_i;
  assign first_next = simt_sm_pkg::lowest(todo_next);
  assign pass_next  = PassW'(32'(first_next) >> $clog2(NumLanes));
  assign pass_next_o = PassW'(32'(simt_sm_pkg::lowest(rest)) >> $clog2(NumLanes));
  if (NumPasses > 1) begin : g_lanes
    simt_copies #(.Width(PassW), .Copies(NumLanes)) u_pass_copies (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .en_i   ('1),
      .d_i    (pass_next),
      .q_o    (pass_lanes_o)
    );
  end else begin : g_one
    assign pass_lanes_o = '0;  // one group: pass 0
  end
  if (FpPasses > 1) begin : g_fp_lanes
    simt_copies #(.Width(FpPassW), .Copies(FpLanes)) u_fpass_copies (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .en_i   ('1),
      .d_i    (FpPassW'(32'(first_next) >> $clog2(FpLanes))),
      .q_o    (fpass_lanes_o)
    );
  end else begin : g_fp_one
    assign fpass_lanes_o = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      left_q <= '0;
      lgrp_q <= '0;
    end else begin
      left_q <= left_d;
      lgrp_q <= lgrp_d;
    end
  end

`ifdef VERILATOR
  initial begin
    assert (NumLanes >= 1 && NumLanes <= 32 && 32 % NumLanes == 0)
      else $fatal(1, "sm pass: NumLanes %0d does not divide a warp of 32", NumLanes);
    assert (FpLanes >= 1 && FpLanes <= NumLanes && NumLanes % FpLanes == 0)
      else $fatal(1, "sm pass: FpLanes %0d does not divide NumLanes %0d", FpLanes, NumLanes);
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int g = 0; g < Groups; g++) begin
        assert (lgrp_q[g] == (left_q[g*GrpW +: GrpW] != '0))
          else $error("sm pass: group %0d's bit disagrees with the threads left", g);
      end
      // Every thread of an FP pass is in the FP unit's group, and that in the register
      // file's (the group of L threads the pass reads).
      if (valid_i && grp_fp && threads_o != '0)
        assert (simt_sm_pkg::later_groups(threads_o, FpLanes) == '0 &&
                32'(fpass_lanes_o[FpPassW-1:0]) == 32'(first) >> $clog2(FpLanes) &&
                32'(pass_o) == 32'(first) >> $clog2(NumLanes))
          else $error("sm pass: FP pass of threads %h, FP group %0d, group %0d", threads_o,
                      fpass_lanes_o[FpPassW-1:0], pass_o);
      if (more_o && !stop_i) assert (pass_next_o == pass_next)
        else $error("sm pass: the next pass's group %0d, the next cycle's %0d", pass_next_o,
                    pass_next);
      assert (more_o == (valid_i && multi_i && rest != '0))
        else $error("sm pass: more_o %b, threads after this pass %h", more_o, rest);
      // An instruction with passes left stays in EXEC, and its mask does not change.
      if (busy) assert (valid_i && multi_i)
        else $error("sm pass: the instruction left EXEC with passes to run");
      if (busy) assert ((left_q & ~mask_i) == '0)
        else $error("sm pass: a thread left to run does not execute");
      for (int l = 0; l < NumLanes; l++) begin
        if (valid_i) assert (pass_lanes_o[l*PassW +: PassW] == pass_o)
          else $error("sm pass: lane %0d's copy of the pass is %0d, the pass %0d", l,
                      pass_lanes_o[l*PassW +: PassW], pass_o);
      end
    end
  end
`endif

endmodule
