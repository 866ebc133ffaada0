// Reset synchronizer for a board top: an asynchronous active-low request (a button, a PLL
// that has not locked) resets at once and is released on the clock, Stages clocks after the
// request ends, so every flip-flop of the design leaves reset on the same edge.
module simt_reset_sync #(
  parameter int Stages = 2
) (
  input  logic clk_i,
  input  logic rst_ni,     // asynchronous request, active low
  output logic rst_no      // asserted asynchronously, released synchronously
);

  logic [Stages-1:0] sync_d, sync_q;

  assign sync_d = {sync_q[Stages-2:0], 1'b1};
  assign rst_no = sync_q[Stages-1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q <= '0;
    end else begin
      sync_q <= sync_d;
    end
  end

endmodule
