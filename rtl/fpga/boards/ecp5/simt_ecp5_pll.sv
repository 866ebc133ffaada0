// One ECP5 PLL (EHXPLLL) from a board oscillator to the core clock, CLKOP fed back:
// f_out = f_in * ClkfbDiv / ClkiDiv, VCO = f_out * ClkopDiv (400-800 MHz). The divider values
// are what Project Trellis's ecppll prints for the wanted frequency (`yowasp-ecppll -i 25 -o
// 50`: ClkiDiv 1, ClkfbDiv 2, ClkopDiv 12, ClkopCphase 5); docs/blocks/fpga_top.md lists the
// sets the board tops use. locked_o is asynchronous to both clocks.
//
// Yosys (SYNTHESIS defined) instantiates the primitive. Every other tool (Verilator lint and
// simulation, slang) sees a stand-in that passes the input clock through and reports lock at
// once: a verilated board top runs at the oscillator's frequency, which the tests account for.
module simt_ecp5_pll #(
  parameter int InMHz       = 25,
  parameter int ClkiDiv     = 1,
  parameter int ClkfbDiv    = 2,
  parameter int ClkopDiv    = 12,
  parameter int ClkopCphase = 5
) (
  input  logic clk_i,      // the oscillator
  output logic clk_o,      // the core clock
  output logic locked_o
);

  localparam int OutMHz = InMHz * ClkfbDiv / ClkiDiv;
  localparam int VcoMHz = OutMHz * ClkopDiv;

`ifdef SYNTHESIS
  logic clkop;

  // The loop-filter settings ecppll gives every EHXPLLL (nextpnr writes them to the bitstream).
  (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *)
  (* MFG_ENABLE_FILTEROPAMP = "1" *) (* MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA       ("DISABLED"),
    .INTFB_WAKE       ("DISABLED"),
    .STDBY_ENABLE     ("DISABLED"),
    .DPHASE_SOURCE    ("DISABLED"),
    .OUTDIVIDER_MUXA  ("DIVA"),
    .OUTDIVIDER_MUXB  ("DIVB"),
    .OUTDIVIDER_MUXC  ("DIVC"),
    .OUTDIVIDER_MUXD  ("DIVD"),
    .CLKI_DIV         (ClkiDiv),
    .CLKOP_ENABLE     ("ENABLED"),
    .CLKOP_DIV        (ClkopDiv),
    .CLKOP_CPHASE     (ClkopCphase),
    .CLKOP_FPHASE     (0),
    .FEEDBK_PATH      ("CLKOP"),
    .CLKFB_DIV        (ClkfbDiv)
  ) u_pll (
    .RST          (1'b0),
    .STDBY        (1'b0),
    .CLKI         (clk_i),
    .CLKOP        (clkop),
    .CLKFB        (clkop),
    .CLKINTFB     (),
    .PHASESEL0    (1'b0),
    .PHASESEL1    (1'b0),
    .PHASEDIR     (1'b1),
    .PHASESTEP    (1'b1),
    .PHASELOADREG (1'b1),
    .PLLWAKESYNC  (1'b0),
    .ENCLKOP      (1'b0),
    .ENCLKOS      (1'b0),       // every port connected (slang, docs/portable-sv.md):
    .ENCLKOS2     (1'b0),       // the secondary outputs are unused
    .ENCLKOS3     (1'b0),
    .CLKOS        (),
    .CLKOS2       (),
    .CLKOS3       (),
    .INTLOCK      (),
    .REFCLK       (),
    .LOCK         (locked_o)
  );
  assign clk_o = clkop;
`else
  // Simulation stand-in: the oscillator's clock, locked from the start.
  assign clk_o    = clk_i;
  assign locked_o = 1'b1;

`ifdef VERILATOR
  // The dividers must give an ECP5 VCO of 400-800 MHz and a phase within the output divider.
  // (Simulation only: Yosys's formal front end, which reads this branch, takes no immediate
  // assertion with an else.)
  initial begin
    assert (VcoMHz >= 400 && VcoMHz <= 800 && ClkiDiv >= 1 && ClkfbDiv >= 1)
      else $error("ecp5_pll: VCO out of 400-800 MHz");
    assert (ClkopCphase < ClkopDiv) else $error("ecp5_pll: CLKOP_CPHASE beyond CLKOP_DIV");
  end
`endif
`endif

endmodule
