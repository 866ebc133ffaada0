// Issue: the warp scheduler, instruction fetch and the held warps (the barrier scoreboard).
//
// When the sequencer lets a warp issue (issue_try_i), the scheduler picks one and the unit
// fetches its instruction at the PC the divergence unit's issue port gives, or, for a warp
// whose state changes in this very cycle, at the bypassed PC: the warp retiring a simple
// instruction in EXEC goes on at pc + 1 with the same mask (self_*), a sleeping warp woken
// in this cycle at its resume address with the woken threads (woken_*). The fetched word is
// the instruction memory's read data in the next cycle, when the instruction is in DE
// (de_*_o). A PC outside the loaded code is refused unless the core is idle with DE empty
// (drained_i, from registers: nothing else can be in flight beside it), and then faults
// (pc_bad_o). Refused, it keeps every warp from issuing, so the core drains to that state.
//
// Held warps (seed 000 [0099]): an arrival the barrier unit refused (its id busy with
// another tag) holds its warp (hold_i); the scheduler issues it again when its copy of the
// barrier table entry, filled through the unit's read port and kept current by its update
// stream, shows the id free or busy with this tag.
//
// Warps waiting for a load (the register scoreboard is the load/store unit's in-flight
// table): an instruction given back from DE because it reads or writes a register a load of
// its warp has still to write (sb_back_i) keeps its warp from the scheduler, so other warps
// fill the time, until every in-flight slot it waits for has freed (sb_slots_i, remembered
// per warp and cleared by sb_slot_freed_i) and, if it also waited for the FP unit
// (sb_fpu_i), a result of that unit is written (sb_fpu_freed_i). Waking at the last of its
// slots rather than the first spares the issue slots the instruction took to find another
// of its loads still out (stream_v4's add of two v4 loads: given back three times an
// iteration, now once).
module simt_sm_issue #(
  parameter int NumWarps  = 8,
  parameter int NumCtas   = 4,
  parameter int ImemDepth = 1024,
  parameter int Slots     = 8,     // the load/store unit's in-flight slots
  localparam int WarpW    = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW     = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int ImemAW   = $clog2(ImemDepth),
  localparam int AddrW    = 22
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  // Host: code.
  input  logic                      imem_we_i,
  input  logic [ImemAW-1:0]         imem_waddr_i,
  input  logic [63:0]               imem_wdata_i,
  input  logic [ImemAW:0]           cfg_code_size_i,
  input  simt_pkg::sched_policy_e   cfg_policy_i,

  // What the scheduler sees of each warp.
  input  logic [NumWarps-1:0]       warp_valid_i,
  input  logic [NumWarps-1:0]       warp_active_i,
  input  logic [NumWarps-1:0]       warp_stall_i,     // token queue being serviced
  input  logic [NumWarps-1:0]       retire_i,         // instruction retired or given back
  input  logic                      sb_back_i,        // DE's instruction waits (a hazard)
  input  logic [WarpW-1:0]          sb_warp_i,
  input  logic [Slots-1:0]          sb_slots_i,       // ... for these load/store slots
  input  logic                      sb_fpu_i,         // ... for the FP unit
  input  logic [Slots-1:0]          sb_slot_freed_i,  // load/store slots freed this cycle
  input  logic                      sb_fpu_freed_i,   // an FP result written this cycle
  output logic [NumWarps-1:0]       sb_wait_o,
  input  logic [NumWarps*CtaW-1:0]  warp_cta_i,
  input  logic [NumCtas*16-1:0]     cta_id_i,         // %ctaid per resident CTA

  // Barrier scoreboard: the barrier unit's table read port and update stream.
  output logic [CtaW+3:0]           bar_rd_idx_o,
  input  logic [1:0]                bar_rd_state_i,
  input  logic [AddrW-1:0]          bar_rd_tag_i,
  input  logic                      bar_upd_valid_i,
  input  logic [CtaW+3:0]           bar_upd_idx_i,
  input  logic [1:0]                bar_upd_state_i,
  input  logic [AddrW-1:0]          bar_upd_tag_i,
  input  logic                      hold_i,           // the arrival in flight was refused
  input  logic [WarpW-1:0]          hold_warp_i,
  input  logic [3:0]                hold_id_i,
  input  logic [AddrW-1:0]          hold_pc_i,
  input  logic                      unhold_i,         // a launch takes the slot
  input  logic [WarpW-1:0]          unhold_warp_i,
  output logic [NumWarps-1:0]       held_o,

  // Issue.
  input  logic                      issue_try_i,
  input  logic                      drained_i,        // IDLE, DE empty (registered)
  input  logic                      de_hold_i,        // DE keeps its instruction (passes)
  input  logic                      self_i,           // bypass: the warp in EXEC or MEM ...
  input  logic [WarpW-1:0]          self_warp_i,
  input  logic [AddrW-1:0]          self_pc_i,        // ... at pc + 1 ...
  input  logic [31:0]               self_active_i,    // ... with its mask
  input  logic                      woken_i,          // bypass: a warp woken this cycle
  input  logic [WarpW-1:0]          woken_warp_i,
  input  logic [AddrW-1:0]          woken_pc_i,
  input  logic [31:0]               woken_mask_i,
  input  logic [AddrW-1:0]          iss_pc_i,         // the divergence unit's issue port
  input  logic [31:0]               iss_active_i,
  output logic                      sched_valid_o,
  output logic [WarpW-1:0]          sched_warp_o,
  output logic                      issued_o,
  output logic                      pc_bad_o,         // issued at a PC out of range: fault
  output logic [AddrW-1:0]          issue_pc_o,

  // DE: the instruction fetched last cycle.
  output logic                      de_v_o,
  output logic [WarpW-1:0]          de_w_o,
  output logic [AddrW-1:0]          de_pc_o,
  output logic [31:0]               de_active_o,
  output logic [63:0]               de_word_o,
  output logic [31:0]               de_regs_o         // ... the registers it reads or writes
);

  logic [NumWarps-1:0] held_d, held_q;
  logic [NumWarps-1:0] sb_wait;
  logic [NumWarps*Slots-1:0] sb_slots_d, sb_slots_q;  // per warp: the slots it waits for
  logic [NumWarps-1:0] sb_fpu_d, sb_fpu_q;            // per warp: waits for the FP unit
  logic [3:0]          held_id_d [NumWarps];
  logic [3:0]          held_id_q [NumWarps];
  logic [AddrW-1:0]    held_pc_d [NumWarps];
  logic [AddrW-1:0]    held_pc_q [NumWarps];
  logic                de_v_d, de_v_q;
  logic [WarpW-1:0]    de_w_d, de_w_q;
  logic [AddrW-1:0]    de_pc_d, de_pc_q;
  logic [31:0]         de_active_d, de_active_q;

  // ---- Scheduler ---------------------------------------------------------------------------
  logic                      sched_ready, sched_valid;
  logic [WarpW-1:0]          sched_warp;
  logic [NumCtas*6-1:0]      sched_cta_prio;
  logic [NumWarps*4-1:0]     sched_bar_id;
  logic [NumWarps*AddrW-1:0] sched_bar_tag;
  /* verilator lint_off UNUSED */
  logic [NumWarps-1:0]       sched_gnt, sched_eligible, sched_bar_wait, sched_busy;
  logic                      sched_bar_rd_valid;
  /* verilator lint_on UNUSED */
  for (genvar i = 0; i < NumWarps; i++) begin : g_sched_bar
    assign sched_bar_id[i*4 +: 4]          = held_id_q[i];
    assign sched_bar_tag[i*AddrW +: AddrW] = held_pc_q[i];
  end
  // Older CTAs first under the cta policy, as the ISA model: 63 - min(%ctaid, 63).
  for (genvar c = 0; c < NumCtas; c++) begin : g_cta_prio
    logic [15:0] id;
    assign id = cta_id_i[c*16 +: 16];
    assign sched_cta_prio[c*6 +: 6] = (id > 16'd63) ? 6'd0 : 6'd63 - id[5:0];
  end

  simt_warp_scheduler #(
    .NumWarps  (NumWarps),
    .PrioW     (6),
    .NumCtas   (NumCtas),
    .NumBarIds (16),
    .TagW      (AddrW),
    .NumUpd    (1)
  ) u_sched (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .policy_i          (cfg_policy_i),
    .warp_valid_i      (warp_valid_i),
    .warp_active_i     (warp_active_i),
    .inst_valid_i      ({NumWarps{1'b1}}),
    .warp_stall_i      (warp_stall_i | sb_wait),
    .retire_i          (retire_i),
    .warp_cta_i        (warp_cta_i),
    .prog_prio_i       ('0),
    .cta_prio_i        (sched_cta_prio),
    .inst_bar_i        (held_q),
    .inst_bar_id_i     (sched_bar_id),
    .inst_tag_i        (sched_bar_tag),
    .bar_rd_valid_o    (sched_bar_rd_valid),
    .bar_rd_idx_o      (bar_rd_idx_o),
    .bar_rd_state_i    (bar_rd_state_i),
    .bar_rd_tag_i      (bar_rd_tag_i),
    .bar_rd_late_ok_i  (1'b1),  // the unit takes every arrival of the busy tag
    .bar_upd_valid_i   (bar_upd_valid_i),
    .bar_upd_idx_i     (bar_upd_idx_i),
    .bar_upd_state_i   (bar_upd_state_i),
    .bar_upd_tag_i     (bar_upd_tag_i),
    .bar_upd_late_ok_i (1'b1),
    .issue_ready_i     (sched_ready),
    .issue_valid_o     (sched_valid),
    .issue_warp_o      (sched_warp),
    .issue_gnt_o       (sched_gnt),
    .eligible_o        (sched_eligible),
    .bar_wait_o        (sched_bar_wait),
    .busy_o            (sched_busy)
  );

  // ---- Fetch -------------------------------------------------------------------------------
  logic             pc_bad;
  logic [AddrW-1:0] issue_pc;
  logic [31:0]      issue_active;
  logic             self, woken;
  assign self         = self_i && sched_warp == self_warp_i;
  assign woken        = woken_i && sched_warp == woken_warp_i;
  logic [AddrW-1:0] self_pc, code_end;
  assign self_pc      = self_pc_i + 1'b1;
  assign issue_pc     = self ? self_pc : woken ? woken_pc_i : iss_pc_i;
  assign issue_active = self ? self_active_i : woken ? woken_mask_i : iss_active_i;
  // Each source's PC checked beside the pick, the pick choosing the verdict (issue #26: the
  // check after the PC's choice lengthened the pick -> PC -> issue chain).
  assign code_end     = {{(AddrW - ImemAW - 1){1'b0}}, cfg_code_size_i};
  assign pc_bad       = self ? code_end <= self_pc : woken ? code_end <= woken_pc_i :
                        code_end <= iss_pc_i;
  // A PC out of range faults only once nothing before it is in flight: from registered state
  // (issue #26: the sequencer's "nothing else in flight next cycle" came through control and
  // the divergence unit's answer, the routed core's longest path into the scheduler).
  assign sched_ready  = issue_try_i && (!pc_bad || drained_i);
  assign issued_o     = sched_valid && sched_ready;
  assign pc_bad_o     = issued_o && pc_bad;

  simt_ram_1r1w #(.Width(64), .Depth(ImemDepth)) u_imem (
    .clk_i   (clk_i),
    .we_i    (imem_we_i),
    .waddr_i (imem_waddr_i),
    .wdata_i (imem_wdata_i),
    .re_i    (issued_o),
    .raddr_i (issue_pc[ImemAW-1:0]),
    .rdata_o (de_word_o)
  );
  // Beside each word, the registers it reads or writes (simt_sm_pkg::inst_regs), computed as
  // it is written: the scoreboard's check of DE's instruction then starts from this RAM's
  // output instead of decoding the word (issue #26: that decode led the board core's
  // critical path, through the hazard, the sequencer's go and the next group's register read).
  logic [31:0] imem_wregs;
  assign imem_wregs = simt_sm_pkg::inst_regs(imem_wdata_i);
  simt_ram_1r1w #(.Width(32), .Depth(ImemDepth)) u_iregs (
    .clk_i   (clk_i),
    .we_i    (imem_we_i),
    .waddr_i (imem_waddr_i),
    .wdata_i (imem_wregs),
    .re_i    (issued_o),
    .raddr_i (issue_pc[ImemAW-1:0]),
    .rdata_o (de_regs_o)
  );

  always_comb begin
    held_d      = held_q;
    // A warp waits for the slots its instruction found busy, less those freeing in this very
    // cycle; it tries again when none is left. Its next instruction, fetched behind the first
    // and given back after it, adds nothing: the warp starts again at the first.
    sb_fpu_d    = sb_fpu_q & ~{NumWarps{sb_fpu_freed_i}};
    for (int i = 0; i < NumWarps; i++) begin
      sb_slots_d[i*Slots +: Slots] = sb_slots_q[i*Slots +: Slots] & ~sb_slot_freed_i;
      if (sb_back_i && sb_warp_i == WarpW'(i) && !sb_wait[i]) begin
        sb_slots_d[i*Slots +: Slots] = sb_slots_i & ~sb_slot_freed_i;
        sb_fpu_d[i]                  = sb_fpu_i && !sb_fpu_freed_i;
      end
    end
    // DE lasts one cycle: the instruction moves on or is issued again, unless it waits for
    // EXEC's passes (the fetched word stays in the instruction memory's read register).
    de_v_d      = de_hold_i && de_v_q;
    de_w_d      = de_w_q;
    de_pc_d     = de_pc_q;
    de_active_d = de_active_q;
    for (int i = 0; i < NumWarps; i++) begin
      held_id_d[i] = held_id_q[i];
      held_pc_d[i] = held_pc_q[i];
    end
    if (hold_i) begin
      held_d[hold_warp_i]    = 1'b1;
      held_id_d[hold_warp_i] = hold_id_i;
      held_pc_d[hold_warp_i] = hold_pc_i;
    end
    if (unhold_i) held_d[unhold_warp_i] = 1'b0;
    if (issued_o) begin
      held_d[sched_warp] = 1'b0;  // a held warp retries its barrier instruction
      de_v_d      = !pc_bad;
      de_w_d      = sched_warp;
      de_pc_d     = issue_pc;
      de_active_d = issue_active;
    end
  end

  assign held_o        = held_q;
  always_comb begin
    for (int i = 0; i < NumWarps; i++) begin
      sb_wait[i] = sb_slots_q[i*Slots +: Slots] != '0 || sb_fpu_q[i];
    end
  end
  assign sb_wait_o     = sb_wait;
  assign sched_valid_o = sched_valid;
  assign sched_warp_o  = sched_warp;
  assign issue_pc_o    = issue_pc;
  assign de_v_o        = de_v_q;
  assign de_w_o        = de_w_q;
  assign de_pc_o       = de_pc_q;
  assign de_active_o   = de_active_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_q      <= '0;
      sb_slots_q  <= '0;
      sb_fpu_q    <= '0;
      de_v_q      <= 1'b0;
      de_w_q      <= '0;
      de_pc_q     <= '0;
      de_active_q <= '0;
      for (int i = 0; i < NumWarps; i++) begin
        held_id_q[i] <= '0;
        held_pc_q[i] <= '0;
      end
    end else begin
      held_q      <= held_d;
      sb_slots_q  <= sb_slots_d;
      sb_fpu_q    <= sb_fpu_d;
      de_v_q      <= de_v_d;
      de_w_q      <= de_w_d;
      de_pc_q     <= de_pc_d;
      de_active_q <= de_active_d;
      for (int i = 0; i < NumWarps; i++) begin
        held_id_q[i] <= held_id_d[i];
        held_pc_q[i] <= held_pc_d[i];
      end
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (de_v_q) assert (de_active_q != '0)
        else $error("sm: issued warp %0d has no active thread", de_w_q);
      assert (!(de_hold_i && issued_o))
        else $error("sm issue: a warp issued while DE holds an instruction");
      assert (!(hold_i && issued_o))
        else $error("sm issue: a warp held and issued in one cycle");
      assert (!sched_valid || pc_bad == (code_end <= issue_pc))
        else $error("sm issue: the PC check's verdict is not the issued PC's");
      assert (!(issued_o && sb_wait[sched_warp]))
        else $error("sm issue: a warp waiting for a load issued");
      assert (!(sb_back_i && sb_slots_i == '0 && !sb_fpu_i))
        else $error("sm issue: an instruction given back for a hazard that names no cause");
    end
  end
`endif

endmodule
