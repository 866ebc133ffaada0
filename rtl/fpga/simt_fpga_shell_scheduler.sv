// FPGA measurement shell for simt_warp_scheduler: every input comes from a register of a
// serial shift chain and every output goes to a register, XOR-reduced to one pin. All paths
// through the scheduler are then register to register, so nextpnr's Fmax is the block's own
// (the pins of a 32-warp scheduler would not fit any iCE40 package). For measurement only.
module simt_fpga_shell_scheduler #(
  parameter int NumWarps  = 8,
  parameter int PrioW     = 6,
  parameter int NumCtas   = 4,
  parameter int NumBarIds = 16,
  parameter int TagW      = 22,
  parameter int NumUpd    = 2,
  localparam int WarpW    = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW     = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int BarIdW   = (NumBarIds > 1) ? $clog2(NumBarIds) : 1,
  localparam int BarW     = CtaW + BarIdW
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic sin_i,
  output logic sout_o
);

  // Input fields, in order, in one shift chain.
  localparam int WPolicy = 3;
  localparam int WWarp   = NumWarps * (6 + CtaW + PrioW + BarIdW + TagW);
  localparam int WCta    = NumCtas * PrioW;
  localparam int WRd     = 2 + TagW + 1;
  localparam int WUpd    = NumUpd * (1 + BarW + 2 + TagW + 1);
  localparam int InW     = WPolicy + WWarp + WCta + WRd + WUpd + 1;
  localparam int OutW    = 1 + WarpW + 4 * NumWarps + 1 + BarW;

  logic [InW-1:0]  chain_q;
  logic [OutW-1:0] out_d, out_q;
  logic            sout_q;

  always_ff @(posedge clk_i) begin
    chain_q <= {chain_q[InW-2:0], sin_i};
  end

  // Slices of the chain.
  localparam int OWarp = WPolicy;
  localparam int OCta  = OWarp + WWarp;
  localparam int ORd   = OCta + WCta;
  localparam int OUpd  = ORd + WRd;
  localparam int U     = NumUpd;
  localparam int N     = NumWarps;

  simt_warp_scheduler #(
    .NumWarps  (NumWarps),
    .PrioW     (PrioW),
    .NumCtas   (NumCtas),
    .NumBarIds (NumBarIds),
    .TagW      (TagW),
    .NumUpd    (NumUpd)
  ) u_sched (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .policy_i      (chain_q[2:0]),
    .warp_valid_i  (chain_q[OWarp + 0*N +: N]),
    .warp_active_i (chain_q[OWarp + 1*N +: N]),
    .inst_valid_i  (chain_q[OWarp + 2*N +: N]),
    .warp_stall_i  (chain_q[OWarp + 3*N +: N]),
    .retire_i      (chain_q[OWarp + 4*N +: N]),
    .inst_bar_i    (chain_q[OWarp + 5*N +: N]),
    .warp_cta_i    (chain_q[OWarp + 6*N +: N*CtaW]),
    .prog_prio_i   (chain_q[OWarp + (6+CtaW)*N +: N*PrioW]),
    .inst_bar_id_i (chain_q[OWarp + (6+CtaW+PrioW)*N +: N*BarIdW]),
    .inst_tag_i    (chain_q[OWarp + (6+CtaW+PrioW+BarIdW)*N +: N*TagW]),
    .cta_prio_i    (chain_q[OCta +: WCta]),
    .bar_rd_valid_o    (out_d[1 + WarpW + 4*N]),
    .bar_rd_idx_o      (out_d[2 + WarpW + 4*N +: BarW]),
    .bar_rd_state_i    (chain_q[ORd +: 2]),
    .bar_rd_tag_i      (chain_q[ORd + 2 +: TagW]),
    .bar_rd_late_ok_i  (chain_q[ORd + 2 + TagW]),
    .bar_upd_valid_i   (chain_q[OUpd +: U]),
    .bar_upd_idx_i     (chain_q[OUpd + U +: U*BarW]),
    .bar_upd_state_i   (chain_q[OUpd + U*(1+BarW) +: U*2]),
    .bar_upd_tag_i     (chain_q[OUpd + U*(3+BarW) +: U*TagW]),
    .bar_upd_late_ok_i (chain_q[OUpd + U*(3+BarW+TagW) +: U]),
    .issue_ready_i (chain_q[InW-1]),
    .issue_valid_o (out_d[0]),
    .issue_warp_o  (out_d[1 +: WarpW]),
    .issue_gnt_o   (out_d[1 + WarpW +: N]),
    .eligible_o    (out_d[1 + WarpW + N +: N]),
    .bar_wait_o    (out_d[1 + WarpW + 2*N +: N]),
    .busy_o        (out_d[1 + WarpW + 3*N +: N])
  );

  always_ff @(posedge clk_i) begin
    out_q  <= out_d;
    sout_q <= ^out_q;
  end
  assign sout_o = sout_q;

endmodule
