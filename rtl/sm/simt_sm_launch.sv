// CTA launch: the warp-slot and resident-CTA tables, launch and retirement of CTAs.
//
// The seam where a work front end hands in launches (seed 003): today the launch comes from
// the host's configuration (cfg_*), one CTA after the other in %ctaid order onto the lowest
// free warp slots, as the ISA model does. A launch (start_i, when launch_ready_o) takes per
// warp the lowest free slot (WARP; the decode unit forgets what the slot's registers held, so
// they read 0) and launches it in the divergence unit (DU). The two overlap: while warp k's
// divergence-unit launch is in flight (DU, several cycles), warp k+1 takes its slot, so a
// warp costs its DU step alone. Then the launch sets the CTA's thread count in the barrier
// unit (BU; while the unit wakes threads the sequencer delivers the wake first, wait_wake_o)
// and clears the CTA's shared memory (SH). done_o ends it. retire_i frees the lowest CTA all
// of whose warps are done (cta_finished_o). A CTA has at most CtaWarps warps (the barrier
// unit's per-thread state is sized by it); a launch of more is refused (cfg_bad_o).
module simt_sm_launch #(
  parameter int NumWarps    = 8,
  parameter int NumCtas     = 4,
  parameter int CtaWarps    = NumWarps,  // warps a CTA may have (1..NumWarps)
  parameter int ParamWords  = 64,
  parameter int SharedWords = 1024,
  localparam int WarpW      = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW       = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int ParamAW    = $clog2(ParamWords),
  localparam int ShAW       = $clog2(NumCtas * SharedWords),
  localparam int NumRows    = NumCtas * CtaWarps,
  localparam int RowW       = (NumRows > 1) ? $clog2(NumRows) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  // Launch configuration (stable while running).
  input  logic [15:0]                   cfg_ntid_i,
  input  logic [15:0]                   cfg_nctaid_i,
  input  logic [31:0]                   cfg_shared_bytes_i,
  input  logic [ParamAW:0]              cfg_param_words_i,
  output logic                          cfg_bad_o,        // the launch does not fit

  // Sequencer.
  input  logic                          started_i,
  input  logic                          start_i,          // launch the next CTA now
  input  logic                          active_i,         // the core is the launch's (not
                                                          // delivering a wake meanwhile)
  input  logic                          retire_i,         // retire a finished CTA now
  output logic                          launch_ready_o,   // a CTA can be launched
  output logic                          busy_o,           // launching
  output logic                          done_o,           // the launch ends this cycle
  output logic                          wait_wake_o,      // BU refused: deliver a wake first
  output logic                          all_done_o,       // every CTA has finished
  output logic [NumCtas-1:0]            cta_finished_o,
  output logic [CtaW-1:0]               retire_idx_o,     // the CTA retire_i frees
  input  logic [NumWarps-1:0]           wdone_i,          // warps with nothing left to run

  // Launch steps through the other units.
  output logic                          warp_valid_o,     // a warp takes slot warp_slot_o
  output logic [WarpW-1:0]              warp_slot_o,
  output logic                          first_warp_o,     // ... the CTA's first warp
  output logic                          du_valid_o,       // divergence-unit launch
  output logic [WarpW-1:0]              du_warp_o,
  output simt_pkg::du_req_t             du_req_o,
  input  logic                          du_ready_i,
  output logic                          bu_valid_o,       // barrier-unit thread count
  output logic [CtaW-1:0]               bu_cta_o,
  output simt_pkg::bu_req_t             bu_req_o,
  input  logic                          bu_ready_i,
  input  logic                          bu_wake_valid_i,
  output logic                          sh_we_o,          // shared-memory clear
  output logic [ShAW-1:0]               sh_waddr_o,
  output logic                          evt_du_stall_o,   // performance event

  // The tables.
  output logic [NumWarps-1:0]           resident_o,
  output logic [NumWarps*CtaW-1:0]      wcta_o,           // resident CTA index per slot
  output logic [NumWarps*WarpW-1:0]     wic_o,            // warp index in its CTA
  output logic [NumWarps*16-1:0]        wctaid_o,         // %ctaid
  output logic [NumCtas*16-1:0]         cid_o,            // %ctaid per resident CTA
  output logic [NumRows*WarpW-1:0]      slot_of_o         // (CTA, warp in CTA) -> slot
);

  simt_sm_pkg::launch_state_e state_d, state_q;
  logic [CtaW-1:0]     lcta_d, lcta_q;      // resident index being launched
  logic [WarpW-1:0]    lwarp_d, lwarp_q;    // warp in CTA whose DU step is next or in flight
  logic [WarpW-1:0]    lslot_d, lslot_q;    // ... its slot
  logic                ahead_d, ahead_q;    // warp lwarp_q + 1 took its slot already (DU)
  logic [WarpW-1:0]    aslot_d, aslot_q;    // ... which
  logic [ShAW:0]       lcnt_d, lcnt_q;      // shared clear counter

  logic [15:0]         next_cta_d, next_cta_q;  // next %ctaid to launch
  logic [15:0]         finished_d, finished_q;  // CTAs finished
  logic [NumWarps-1:0] resident_d, resident_q;
  logic [NumCtas-1:0]  cvalid_d, cvalid_q;
  logic [CtaW-1:0]     wcta_d [NumWarps];
  logic [CtaW-1:0]     wcta_q [NumWarps];
  logic [WarpW-1:0]    wic_d [NumWarps];
  logic [WarpW-1:0]    wic_q [NumWarps];
  logic [15:0]         wctaid_d [NumWarps];
  logic [15:0]         wctaid_q [NumWarps];
  logic [15:0]         cid_d [NumCtas];
  logic [15:0]         cid_q [NumCtas];
  logic [WarpW-1:0]    slot_of_d [NumRows];
  logic [WarpW-1:0]    slot_of_q [NumRows];

  // Warps per CTA and the launch mask of the warp being launched, registered with the warp
  // index (lmask_q is the mask of lwarp_q: the subtraction and decode stay off the path from
  // the divergence unit's launch request into its fast path; the configuration does not
  // change while the core runs).
  function automatic logic [31:0] launch_mask(logic [15:0] ntid, logic [WarpW-1:0] warp);
    logic [15:0] threads;  // the CTA's threads from this warp's first on
    threads = ntid - {4'd0, 7'(warp), 5'd0};
    launch_mask = (threads >= 16'd32) ? 32'hFFFF_FFFF : ((32'd1 << threads[4:0]) - 32'd1);
  endfunction
  logic [15:0] wpc;
  logic [31:0] lmask_d, lmask_q;
  assign wpc     = (cfg_ntid_i + 16'd31) >> 5;
  assign lmask_d = launch_mask(cfg_ntid_i, lwarp_d);

  assign cfg_bad_o = cfg_ntid_i == '0 || wpc > 16'(CtaWarps) ||
                     cfg_shared_bytes_i > 32'(SharedWords * 4) ||
                     cfg_param_words_i > (ParamAW + 1)'(ParamWords);

  // The warp whose WARP step is this cycle's (warp_valid_o): the first in WARP, the one after
  // lwarp_q while warp lwarp_q's DU step is in flight.
  logic [WarpW-1:0] wwarp;
  logic             more;  // warp lwarp_q + 1 belongs to the CTA
  assign wwarp = (state_q == simt_sm_pkg::LnWarp) ? lwarp_q : lwarp_q + 1'b1;
  assign more  = 16'(lwarp_q) + 16'd1 < wpc;

  // Free warp slots and resident-CTA indices.
  logic [WarpW:0]   free_warps;
  logic [WarpW-1:0] first_free_slot;
  logic [CtaW-1:0]  first_free_cta;
  logic             any_free_cta;
  always_comb begin
    free_warps      = '0;
    first_free_slot = '0;
    for (int i = NumWarps - 1; i >= 0; i--) begin
      if (!resident_q[i]) first_free_slot = WarpW'(i);
    end
    for (int i = 0; i < NumWarps; i++) free_warps = free_warps + {{WarpW{1'b0}}, !resident_q[i]};
    first_free_cta = '0;
    any_free_cta   = 1'b0;
    for (int c = NumCtas - 1; c >= 0; c--) begin
      if (!cvalid_q[c]) begin
        first_free_cta = CtaW'(c);
        any_free_cta   = 1'b1;
      end
    end
  end

  assign launch_ready_o = started_i && next_cta_q < cfg_nctaid_i && any_free_cta &&
                          {{(16 - WarpW - 1){1'b0}}, free_warps} >= wpc;
  assign all_done_o     = finished_q == cfg_nctaid_i;

  // A resident CTA all of whose warps are done, and the lowest of them.
  logic [CtaW-1:0] retire_cta;
  always_comb begin
    retire_cta = '0;
    for (int c = 0; c < NumCtas; c++) begin
      cta_finished_o[c] = cvalid_q[c];
      for (int i = 0; i < NumWarps; i++) begin
        if (resident_q[i] && wcta_q[i] == CtaW'(c) && !wdone_i[i]) cta_finished_o[c] = 1'b0;
      end
    end
    for (int c = NumCtas - 1; c >= 0; c--) begin
      if (cta_finished_o[c]) retire_cta = CtaW'(c);
    end
  end

  logic sh_left;  // shared words of the CTA still to clear
  assign sh_left = {{(32 - ShAW - 1){1'b0}}, lcnt_q} < (cfg_shared_bytes_i >> 2);

  // ---- Sequencing ------------------------------------------------------------------------
  always_comb begin
    state_d = state_q;
    lcta_d  = lcta_q;
    lwarp_d = lwarp_q;
    lslot_d = lslot_q;
    ahead_d = ahead_q;
    aslot_d = aslot_q;
    lcnt_d  = lcnt_q;
    done_o  = 1'b0;
    // The launch waits while the sequencer delivers a wake in its BU step.
    if (active_i || state_q == simt_sm_pkg::LnIdle) begin
      unique case (state_q)
        simt_sm_pkg::LnIdle: begin
          if (start_i) begin
            lcta_d  = first_free_cta;
            lwarp_d = '0;
            ahead_d = 1'b0;
            state_d = simt_sm_pkg::LnWarp;
          end
        end
        simt_sm_pkg::LnWarp: begin
          lslot_d = first_free_slot;
          state_d = simt_sm_pkg::LnDu;
        end
        simt_sm_pkg::LnDu: begin
          // The next warp takes its slot meanwhile (warp_valid_o), once.
          if (more && !ahead_q) begin
            ahead_d = 1'b1;
            aslot_d = first_free_slot;
          end
          if (du_ready_i) begin
            if (more) begin
              // The next warp's DU step follows at once (its slot was taken before or now).
              lwarp_d = lwarp_q + 1'b1;
              lslot_d = ahead_q ? aslot_q : first_free_slot;
              ahead_d = 1'b0;
            end else begin
              state_d = simt_sm_pkg::LnBu;
            end
          end
        end
        simt_sm_pkg::LnBu: begin
          if (bu_ready_i) begin
            lcnt_d  = '0;
            state_d = simt_sm_pkg::LnSh;
          end
        end
        simt_sm_pkg::LnSh: begin
          if (sh_left) begin
            lcnt_d = lcnt_q + 1'b1;
          end else begin
            done_o  = 1'b1;
            state_d = simt_sm_pkg::LnIdle;
          end
        end
        default: state_d = simt_sm_pkg::LnIdle;
      endcase
    end
  end

  assign busy_o         = state_q != simt_sm_pkg::LnIdle;
  assign retire_idx_o   = retire_cta;
  assign warp_valid_o   = active_i && (state_q == simt_sm_pkg::LnWarp ||
                                       (state_q == simt_sm_pkg::LnDu && more && !ahead_q));
  assign warp_slot_o    = first_free_slot;
  assign first_warp_o   = warp_valid_o && wwarp == '0;
  assign du_valid_o     = active_i && state_q == simt_sm_pkg::LnDu;
  assign du_warp_o      = lslot_q;
  always_comb begin  // the warp's threads start at the kernel's first instruction
    du_req_o            = '0;
    du_req_o.op         = simt_pkg::DuLaunch;
    du_req_o.guard      = lmask_q;
    du_req_o.has_target = 1'b1;
  end
  assign evt_du_stall_o = du_valid_o && !du_ready_i;
  assign bu_valid_o     = active_i && state_q == simt_sm_pkg::LnBu;
  assign bu_cta_o       = lcta_q;
  always_comb begin  // the CTA's threads: its barriers' default COUNT
    bu_req_o       = '0;
    bu_req_o.op    = simt_pkg::BuLaunch;
    bu_req_o.count = cfg_ntid_i[11:0];
  end
  assign wait_wake_o    = bu_valid_o && !bu_ready_i && bu_wake_valid_i;
  assign sh_we_o        = active_i && state_q == simt_sm_pkg::LnSh && sh_left;
  assign sh_waddr_o     = ShAW'(lcta_q) * ShAW'(SharedWords) + lcnt_q[ShAW-1:0];

  // ---- Tables ----------------------------------------------------------------------------
  always_comb begin
    next_cta_d = next_cta_q;
    finished_d = finished_q;
    resident_d = resident_q;
    cvalid_d   = cvalid_q;
    for (int i = 0; i < NumWarps; i++) begin
      wcta_d[i]   = wcta_q[i];
      wic_d[i]    = wic_q[i];
      wctaid_d[i] = wctaid_q[i];
    end
    for (int c = 0; c < NumCtas; c++) cid_d[c] = cid_q[c];
    for (int i = 0; i < NumRows; i++) slot_of_d[i] = slot_of_q[i];

    if (retire_i) begin
      // Free the CTA's warp slots and its resident index.
      cvalid_d[retire_cta] = 1'b0;
      for (int i = 0; i < NumWarps; i++) begin
        if (resident_q[i] && wcta_q[i] == retire_cta) resident_d[i] = 1'b0;
      end
      finished_d = finished_q + 16'd1;
    end
    if (warp_valid_o) begin
      resident_d[first_free_slot] = 1'b1;
      wcta_d[first_free_slot]     = lcta_q;
      wic_d[first_free_slot]      = wwarp;
      wctaid_d[first_free_slot]   = next_cta_q;
      slot_of_d[RowW'(simt_pkg::cta_warp_row(32'(lcta_q), 32'(wwarp), 32'(CtaWarps)))] =
          first_free_slot;
    end
    if (done_o) begin
      cvalid_d[lcta_q] = 1'b1;
      cid_d[lcta_q]    = next_cta_q;
      next_cta_d       = next_cta_q + 16'd1;
    end
  end

  assign resident_o = resident_q;
  for (genvar i = 0; i < NumWarps; i++) begin : g_warp_out
    assign wcta_o[i*CtaW +: CtaW]     = wcta_q[i];
    assign wic_o[i*WarpW +: WarpW]    = wic_q[i];
    assign wctaid_o[i*16 +: 16]       = wctaid_q[i];
  end
  for (genvar c = 0; c < NumCtas; c++) begin : g_cta_out
    assign cid_o[c*16 +: 16] = cid_q[c];
  end
  for (genvar i = 0; i < NumRows; i++) begin : g_slot_out
    assign slot_of_o[i*WarpW +: WarpW] = slot_of_q[i];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= simt_sm_pkg::LnIdle;
      lcta_q     <= '0;
      lwarp_q    <= '0;
      lmask_q    <= '0;
      lslot_q    <= '0;
      ahead_q    <= 1'b0;
      aslot_q    <= '0;
      lcnt_q     <= '0;
      next_cta_q <= '0;
      finished_q <= '0;
      resident_q <= '0;
      cvalid_q   <= '0;
      for (int i = 0; i < NumWarps; i++) begin
        wcta_q[i]   <= '0;
        wic_q[i]    <= '0;
        wctaid_q[i] <= '0;
      end
      for (int c = 0; c < NumCtas; c++) cid_q[c] <= '0;
      for (int i = 0; i < NumRows; i++) slot_of_q[i] <= '0;
    end else begin
      state_q    <= state_d;
      lcta_q     <= lcta_d;
      lwarp_q    <= lwarp_d;
      lmask_q    <= lmask_d;
      lslot_q    <= lslot_d;
      ahead_q    <= ahead_d;
      aslot_q    <= aslot_d;
      lcnt_q     <= lcnt_d;
      next_cta_q <= next_cta_d;
      finished_q <= finished_d;
      resident_q <= resident_d;
      cvalid_q   <= cvalid_d;
      for (int i = 0; i < NumWarps; i++) begin
        wcta_q[i]   <= wcta_d[i];
        wic_q[i]    <= wic_d[i];
        wctaid_q[i] <= wctaid_d[i];
      end
      for (int c = 0; c < NumCtas; c++) cid_q[c] <= cid_d[c];
      for (int i = 0; i < NumRows; i++) slot_of_q[i] <= slot_of_d[i];
    end
  end

`ifdef VERILATOR
  initial begin
    assert (CtaWarps >= 1 && CtaWarps <= NumWarps)
      else $fatal(1, "sm launch: CtaWarps %0d outside 1..NumWarps (%0d)", CtaWarps, NumWarps);
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(start_i && (state_q != simt_sm_pkg::LnIdle || !launch_ready_o)))
        else $error("sm launch: start while launching or with no room");
      if (du_valid_o) begin
        assert (lmask_q == launch_mask(cfg_ntid_i, lwarp_q))
          else $error("sm launch: warp %0d's registered launch mask %h", lwarp_q, lmask_q);
      end
      // A warp's DU step names the slot its WARP step took, and the slot is resident.
      if (du_valid_o) begin
        assert (resident_q[lslot_q] && wic_q[lslot_q] == lwarp_q && wcta_q[lslot_q] == lcta_q)
          else $error("sm launch: warp %0d's DU step on slot %0d, which it did not take",
                      lwarp_q, lslot_q);
      end
      assert (!(warp_valid_o && 32'(wwarp) >= CtaWarps))
        else $error("sm launch: warp %0d of a CTA of at most %0d", wwarp, CtaWarps);
      assert (!(warp_valid_o && resident_q[first_free_slot]))
        else $error("sm launch: a warp takes resident slot %0d", first_free_slot);
      assert (!(retire_i && cta_finished_o == '0))
        else $error("sm launch: retire without a finished CTA");
      assert (!(retire_i && state_q != simt_sm_pkg::LnIdle))
        else $error("sm launch: retire during a launch");
      if (started_i) assert (finished_q <= cfg_nctaid_i)
        else $error("sm: more CTAs finished than launched");
    end
  end
`endif

endmodule
